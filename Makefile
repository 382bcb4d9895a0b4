# Lectern — the two set-up commands of the README, plus the benchmark.
#   make run    install what is missing, build, and open the bookshelf with the bundled Samples/
#   make test   install what is missing, build, and run every test
#   make bench  measure, and write BENCHMARKS.md

SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)

# Debian packages the build and the tests need (C libraries and test tools).
APT_PACKAGES := pkg-config libxml2-dev zlib1g-dev libssl-dev libzip-dev libcurl4-openssl-dev libsqlite3-dev \
	libfribidi-dev libpoppler-glib-dev libncurses-dev libmpv-dev zip unzip p7zip-full openssl python3 qpdf \
	poppler-utils tmux
BENCH_PACKAGES := hyperfine time tmux python3-venv

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
RELEASE_FLAGS := -c release --static-swift-stdlib

.PHONY: run test bench deps bench-deps build release clean

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

build: deps
	swift build

release: deps
	swift build $(RELEASE_FLAGS) --product lectern

# The bundled samples are added to the library (idempotent: keyed by content), then the
# bookshelf opens; without a terminal (CI, a pipe) the library is printed instead.
run: release
	@.build/release/lectern import Samples >/dev/null || true
	@if [ -t 0 ] && [ -t 1 ]; then .build/release/lectern; else .build/release/lectern list; fi

test: deps
	swift build
	swift test

bench: bench-deps release
	python3 Benchmarks/bench.py --lectern .build/release/lectern --output BENCHMARKS.md

clean:
	rm -rf .build
