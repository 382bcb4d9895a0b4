# Lectern — the two set-up commands of the README, plus the benchmark.
#   make run    install what is missing, build, and open the bookshelf with the bundled Samples/
#   make test   install what is missing, build, and run every test
#   make bench  measure, and write BENCHMARKS.md
#   make fuzz        build the libFuzzer targets (Fuzz/) and run each for FUZZ_SECONDS; write Fuzz/REPORT.md
#   make check-asan  every test, built with AddressSanitizer (.build-asan)
#   make check-tsan  the concurrent suites, built with ThreadSanitizer (.build-tsan)
#   make install / uninstall / deb / check-install   see Packaging/install.mk

SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

# Debian packages the build and the tests need (C libraries and test tools).
APT_PACKAGES := pkg-config libxml2-dev zlib1g-dev libssl-dev libzip-dev libarchive-dev libmobi-dev libcurl4-openssl-dev libsqlite3-dev \
	libfribidi-dev libcmark-gfm-dev libcmark-gfm-extensions-dev libpoppler-glib-dev libncurses-dev libmpv-dev zip unzip p7zip-full openssl python3 qpdf \
	poppler-utils tmux unicode-data imagemagick xvfb xterm fonts-dejavu-core libchafa-dev libgdk-pixbuf-2.0-dev webp-pixbuf-loader libavif-gdk-pixbuf chafa \
	libespeak-ng-dev espeak-ng-data espeak-ng libdjvulibre-dev djvulibre-bin
# pandoc reads DOCX, ODT and RTF (optional at run time; PandocCommandTests converts with it):
# 21 MB to download, 168 MB installed, 15 s to `apt-get install` on the 2-core build machine.
APT_PACKAGES += pandoc
# speech-dispatcher: libspeechd's headers to build (the library is loaded on first use); the
# server and its espeak-ng module for SpeechdSpeakerTests (a private server, output to ALSA's null).
APT_PACKAGES += libspeechd-dev speech-dispatcher speech-dispatcher-espeak-ng
# calibre: CalibredbLibraryTests builds a calibre library with calibredb itself (run headless).
APT_PACKAGES += calibre
# calibre: the peer of library-wide full-text search (calibredb, run headless).
BENCH_PACKAGES := hyperfine time tmux python3-venv wrk calibre
# The browser the reader page's tests drive headless (PublicationServerTests/BrowserReaderTests).
BROWSER_TEST_PACKAGES := chromium

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The functions run at start and up to a first page are laid out side by side (#28; see
# Packaging/startup-symbols.py): `lectern --version` 20.9 -> 17.3 MB resident.
RELEASE_FLAGS := -c release --static-swift-stdlib \
	-Xlinker --symbol-ordering-file=$(CURDIR)/Packaging/startup-symbols.txt -Xlinker --no-warn-symbol-ordering

.PHONY: run test bench deps bench-deps build release debug clean fuzz fuzz-build check-asan check-tsan

## Install the Debian packages that are missing (apt-get update only when needed).
deps:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@command -v swift >/dev/null || { echo "Swift 6 is required (expected in /opt/swift)"; exit 1; }

bench-deps: deps
	@missing=$$(for p in $(BENCH_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

.PHONY: browser-deps
browser-deps: deps
	@missing=$$(for p in $(BROWSER_TEST_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps commit-file
	swift build

# The commit the binary says it was built from (`lectern --version`, `lectern doctor`), written
# into a file that build_info.c includes, and rewritten only when it changes: a new commit then
# recompiles that one file, where a define on the command line rebuilt the whole program.
COMMIT := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
COMMIT_FILE := Sources/CLecternBuildInfo/commit.inc

.PHONY: commit-file
commit-file:
	@line='#define LECTERN_COMMIT "$(COMMIT)"'; \
	if [ "$$(cat $(COMMIT_FILE) 2>/dev/null)" != "$$line" ]; then echo "$$line" > $(COMMIT_FILE); fi

release: deps commit-file
	swift build $(RELEASE_FLAGS) --product lectern

# The debug build of the program alone (`make test` builds it too, with the tests): CI's
# check-install takes it (Packaging/install.mk). It links the toolchain's Swift runtime: linking
# it in (--static-swift-stdlib) recompiles some modules for that link, and SwiftPM then links
# the normal debug build against those objects and fails.
debug: deps commit-file
	swift build --product lectern

# The bundled samples are added to the library (idempotent: keyed by content), then the
# bookshelf opens; without a terminal (CI, a pipe) the library is printed instead.
run: release
	@.build/release/lectern import Samples >/dev/null || true
	@if [ -t 0 ] && [ -t 1 ]; then .build/release/lectern; else .build/release/lectern list; fi

# The build's output, checked for warnings in the project's own files: it keeps zero (a clean
# build, as CI's, compiles and so shows every file).
WARNINGS_LOG := .build/build-output.log

# The terminal UI suites (tmux) run one at a time, after the others: on a loaded 2-core machine
# a dozen readers drawing at once is what made a capture lag behind its key (issue #17).
test: deps browser-deps commit-file
	@mkdir -p .build
	set -o pipefail; swift build --build-tests 2>&1 | tee $(WARNINGS_LOG)
	@if grep -E '^$(CURDIR)/(Sources|Tests)/.*: warning:' $(WARNINGS_LOG); then \
		echo "The compiler warned about the project's own code (above): keep it at zero warnings."; exit 1; fi
	set -o pipefail; { swift test --skip-build --skip '^UITests\.' && swift test --skip-build --filter '^UITests\.' --no-parallel; } 2>&1 | tee $(TEST_LOG) || { $(FAILURE_SUMMARY); exit 1; }

# CI shows only the end of a run: a failing run ends by repeating what failed and why.
TEST_LOG := .build/test-output.log
FAILURE_SUMMARY_OF = echo; echo "What failed in this run:"; grep -E '✘|[Ee]xpectation failed|error:|Fatal error|Caught error' $(1) | grep -v 'Test run with' | head -60
FAILURE_SUMMARY = $(call FAILURE_SUMMARY_OF,$(TEST_LOG))

bench: bench-deps release
	python3 Benchmarks/bench.py --lectern .build/release/lectern --output BENCHMARKS.md

clean:
	rm -rf .build

# --- Fuzzing and sanitizers (issue #16; Fuzz/README.md) -------------------------------------

# Seconds each fuzz target runs; which targets (default: all, see Fuzz/Package.swift); a
# non-empty FUZZ_KEEP_GOING runs libFuzzer in fork mode, going on after a crash.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
FUZZ_KEEP_GOING ?=
# Corpora, artifacts and logs (git-ignored): runs build on each other's corpora.
FUZZ_WORK := .fuzz
# A release build: the fuzzers run several times faster than in debug, overflow checks kept.
FUZZ_BUILD := swift build --package-path Fuzz -c release --scratch-path $(CURDIR)/.build-fuzz -Xswiftc -sanitize=fuzzer,address

fuzz-build: deps
	$(FUZZ_BUILD)

## Builds the fuzzers, seeds their corpora from the samples, runs each target for FUZZ_SECONDS,
## keeps crash inputs under Tests/Fixtures/fuzz/<target>/ and exits 1 if any target crashed.
fuzz: fuzz-build
	python3 Fuzz/make_corpus.py $(FUZZ_WORK)/corpus $(FUZZ_TARGETS)
	python3 Fuzz/run_fuzzers.py --bin "$$($(FUZZ_BUILD) --show-bin-path)" --work $(FUZZ_WORK) \
		--seconds $(FUZZ_SECONDS) $(if $(FUZZ_KEEP_GOING),--keep-going) --report Fuzz/REPORT.md $(FUZZ_TARGETS)

# Sanitizer reports of the test processes and of every lectern they start (the CLI and UI tests
# run the sanitized binary through LECTERN_BIN) go to files: a child's report would otherwise
# only change its exit status, which a test expecting a failure would not notice.
SANITIZER_ENV = SWIFT_BACKTRACE=enable=no LECTERN_BIN=$(CURDIR)/$(1)/debug/lectern

## Every test with AddressSanitizer, in its own build folder (the normal debug build is kept).
## ASAN_TEST_FLAGS passes options to swift test (CI skips the tmux suites, whose timing
## AddressSanitizer's slowdown stretches).
ASAN_TEST_FLAGS ?=
ASAN_TEST_LOG := .build-asan/test-output.log

# What CI runs under AddressSanitizer, to fit its 90 minutes (a whole run took 21 of them): every
# suite but those that drive processes or a terminal (CLITests, ReaderUITests, UITests, the
# browser) and five TextLayout suites that convert generated chapters of megabytes several ways
# (7 of the 9 minutes of TextLayoutTests under the sanitizer). The code these reach is run under
# it by the others: the parsers, archives, decryption and C libraries, and FuzzRegressionTests,
# which replays every hostile input found by the fuzzers.
ASAN_CI_SKIP := --skip '^(UITests|CLITests|ReaderUITests)\.' --skip 'BrowserReaderTests' \
	--skip '^TextLayoutTests\.(IncrementalParseTests|StreamingConversionTests|ChapterCheckpointTests|PrefixFirstPartTests|SampleLayoutTests)'
.PHONY: check-asan-ci
check-asan-ci:
	$(MAKE) check-asan ASAN_TEST_FLAGS="$(ASAN_CI_SKIP)"

check-asan: deps commit-file
	rm -rf .build-asan/reports && mkdir -p .build-asan/reports
	swift build --build-tests --sanitize=address --scratch-path .build-asan
	$(call SANITIZER_ENV,.build-asan) ASAN_OPTIONS=detect_leaks=0:log_path=$(CURDIR)/.build-asan/reports/asan \
		swift test --skip-build --sanitize=address --scratch-path .build-asan $(ASAN_TEST_FLAGS) 2>&1 | tee $(ASAN_TEST_LOG); \
	status=$${PIPESTATUS[0]}; \
	if [ $$status -ne 0 ]; then $(call FAILURE_SUMMARY_OF,$(ASAN_TEST_LOG)); fi; \
	if ls .build-asan/reports/asan* >/dev/null 2>&1; then cat .build-asan/reports/asan*; \
		echo "AddressSanitizer reported errors (above, and in .build-asan/reports/)"; exit 1; fi; exit $$status

# The suites with concurrent work: rights consumed by concurrent processes, imports and the
# first-run database, audio playback, layout in the background, concurrent archive reads.
TSAN_SUITES ?= LoanTests|RepositoryTests|CommandLineTests|StatusFlowTests|AudiobookPlayerModelTests|MPVPlaybackTests|ReaderUIStateTests|BookshelfUITests|ReaderScreenTests|AudiobookUITests|ArchiveFetcherTests|CachingFetcherTests|PDFDocumentTests|MalformedHTMLTests

## The concurrent suites with ThreadSanitizer, in their own build folder.
check-tsan: deps
	rm -rf .build-tsan/reports && mkdir -p .build-tsan/reports
	swift build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(call SANITIZER_ENV,.build-tsan) TSAN_OPTIONS=halt_on_error=0:suppressions=$(CURDIR)/Fuzz/tsan.supp:log_path=$(CURDIR)/.build-tsan/reports/tsan \
		swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_SUITES)'; status=$$?; \
	if ls .build-tsan/reports/tsan* >/dev/null 2>&1; then cat .build-tsan/reports/tsan*; \
		echo "ThreadSanitizer reported races (above, and in .build-tsan/reports/)"; exit 1; fi; exit $$status

# Installing, packaging and their checks (issue #19).
include Packaging/install.mk
