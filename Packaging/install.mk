# Installing Lectern as a Linux program (issue #19): make install / uninstall in the GNU
# conventions, man pages and shell completions generated from the command definitions, the
# MIME types and desktop entry, a Debian package, and a check of all of it.
#   make install [PREFIX=/usr/local] [DESTDIR=]    make uninstall
#   make deb                                      .build/deb/lectern_VERSION_ARCH.deb
#   make check-install                            install into a temporary DESTDIR and check it

PREFIX ?= /usr/local
DESTDIR ?=
bindir ?= $(PREFIX)/bin
datadir ?= $(PREFIX)/share
mandir ?= $(datadir)/man
docdir ?= $(datadir)/doc/lectern
INSTALL ?= install
# The build whose program is installed: release. CI's check-install takes the debug build that
# `make test` has just made (INSTALL_BUILD=debug): what it checks is the installation, and a
# release build from scratch is 20–30 minutes of CI's 90 on 2 cores. The debug program loads
# the Swift runtime from the toolchain, so its package runs only where Swift is installed.
INSTALL_BUILD ?= release
LECTERN_BIN := .build/$(INSTALL_BUILD)/lectern

# What the installation checks need (Debian packages), installed by check-install and deb.
INSTALL_CHECK_PACKAGES := desktop-file-utils shared-mime-info xdg-utils libfile-mimeinfo-perl man-db groff-base zsh fish \
	lintian dpkg-dev binutils

VERSION := $(shell sed -n 's/^ *static let version = "\(.*\)"/\1/p' Sources/LecternCLI/BuildInfo.swift)
# The date of the commit, for reproducible man pages.
SOURCE_DATE := $(shell git log -1 --format=%cs 2>/dev/null || date -u +%Y-%m-%d)
GENERATED := .build/generated
# Subcommands for tests and benchmarks: no man page.
HIDDEN_COMMANDS := lcp-bench listen-bench consume-rights help

.PHONY: install uninstall man completions deb check-install install-check-deps

install-check-deps: deps
	@missing=$$(for p in $(INSTALL_CHECK_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

## lectern(1) and lectern-SUBCOMMAND(1), from the command definitions (swift-argument-parser's
## generate-manual, run on the installed build's binary).
man: $(INSTALL_BUILD)
	swift build --product generate-manual
	rm -rf $(GENERATED)/man && mkdir -p $(GENERATED)/man
	"$$(swift build --show-bin-path)/generate-manual" $(LECTERN_BIN) --multi-page --date $(SOURCE_DATE) \
		--authors "The Lectern developers" --output-directory $(GENERATED)/man
	cd $(GENERATED)/man && for page in lectern.*.1; do \
		name=$${page#lectern.}; name=$${name%.1}; \
		case " $(HIDDEN_COMMANDS) " in *" $${name%%.*} "*) rm "$$page"; continue;; esac; \
		mv "$$page" "lectern-$$(echo $$name | tr . -).1"; \
	done
	python3 Packaging/fix-man-pages.py $(GENERATED)/man/*.1

## bash, zsh and fish completions, from swift-argument-parser.
completions: $(INSTALL_BUILD)
	rm -rf $(GENERATED)/completions && mkdir -p $(GENERATED)/completions
	$(LECTERN_BIN) --generate-completion-script bash > $(GENERATED)/completions/lectern.bash
	$(LECTERN_BIN) --generate-completion-script zsh > $(GENERATED)/completions/_lectern
	$(LECTERN_BIN) --generate-completion-script fish > $(GENERATED)/completions/lectern.fish
	@# bash-completion sources the script: no interpreter line.
	sed -i '1{/^#!/d}' $(GENERATED)/completions/lectern.bash

install: $(INSTALL_BUILD) man completions
	$(INSTALL) -Dm755 $(LECTERN_BIN) $(DESTDIR)$(bindir)/lectern
	$(INSTALL) -d $(DESTDIR)$(mandir)/man1
	$(INSTALL) -m644 $(GENERATED)/man/*.1 $(DESTDIR)$(mandir)/man1/
	$(INSTALL) -Dm644 $(GENERATED)/completions/lectern.bash $(DESTDIR)$(datadir)/bash-completion/completions/lectern
	$(INSTALL) -Dm644 $(GENERATED)/completions/_lectern $(DESTDIR)$(datadir)/zsh/vendor-completions/_lectern
	$(INSTALL) -Dm644 $(GENERATED)/completions/lectern.fish $(DESTDIR)$(datadir)/fish/vendor_completions.d/lectern.fish
	$(INSTALL) -Dm644 Packaging/lectern-mime.xml $(DESTDIR)$(datadir)/mime/packages/lectern.xml
	$(INSTALL) -Dm644 Packaging/lectern.desktop $(DESTDIR)$(datadir)/applications/lectern.desktop
	$(INSTALL) -Dm644 Packaging/lectern.svg $(DESTDIR)$(datadir)/icons/hicolor/scalable/apps/lectern.svg
	$(INSTALL) -d $(DESTDIR)$(datadir)/lectern/themes
	$(INSTALL) -m644 Themes/*.toml $(DESTDIR)$(datadir)/lectern/themes/
	$(INSTALL) -Dm644 README.md $(DESTDIR)$(docdir)/README.md
	@# The system's MIME and desktop databases, when installing for real.
	@if [ -z "$(DESTDIR)" ]; then \
		command -v update-mime-database >/dev/null && update-mime-database $(datadir)/mime || true; \
		command -v update-desktop-database >/dev/null && update-desktop-database -q $(datadir)/applications || true; \
	fi

uninstall:
	rm -f $(DESTDIR)$(bindir)/lectern
	rm -f $(DESTDIR)$(mandir)/man1/lectern.1 $(DESTDIR)$(mandir)/man1/lectern-*.1
	rm -f $(DESTDIR)$(datadir)/bash-completion/completions/lectern $(DESTDIR)$(datadir)/zsh/vendor-completions/_lectern \
		$(DESTDIR)$(datadir)/fish/vendor_completions.d/lectern.fish
	rm -f $(DESTDIR)$(datadir)/mime/packages/lectern.xml $(DESTDIR)$(datadir)/applications/lectern.desktop \
		$(DESTDIR)$(datadir)/icons/hicolor/scalable/apps/lectern.svg
	rm -rf $(DESTDIR)$(datadir)/lectern $(DESTDIR)$(docdir)
	@if [ -z "$(DESTDIR)" ]; then \
		command -v update-mime-database >/dev/null && update-mime-database $(datadir)/mime || true; \
	fi

## A Debian package of the release build (dpkg-deb), its Depends from the libraries the binary
## links (dpkg-shlibdeps) and those it loads on first use.
deb: install-check-deps
	rm -rf .build/deb && mkdir -p .build/deb
	$(MAKE) install DESTDIR=$(CURDIR)/.build/deb/root PREFIX=/usr
	sh Packaging/make-deb.sh .build/deb "$(VERSION)"

## Installs into a temporary DESTDIR and checks what was installed (Packaging/check-install.sh).
# A debug build finds the Swift runtime through the toolchain's folder (its RUNPATH), which
# lintian reports as an error: that one tag is not an error of the installation checked.
check-install: install-check-deps deb
	LINTIAN_SUPPRESS="$(if $(filter debug,$(INSTALL_BUILD)),custom-library-search-path)" sh Packaging/check-install.sh .build/deb
