# flamedesk — `make run` and `make test` set up a fresh Debian/Ubuntu machine by themselves.
GO          ?= go
BIN         := bin/flamedesk
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS     := -X main.version=$(VERSION)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME    ?= 30s
FILE        ?=
PREFIX      ?= $(HOME)/.local
ICON_SIZES  := 16 22 24 32 48 64 128 256 512
BENCHTIME   ?= 3x
GOWINRES    := github.com/tc-hib/go-winres@v0.3.3
# Windows wants a four-number file version: the x.y.z of VERSION (a git tag vx.y.z), else 0.1.0.
WIN_VERSION := $(or $(shell printf '%s\n' '$(VERSION)' | sed -n 's/^v\{0,1\}\([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\).*/\1.0/p'),0.1.0.0)
MACOS_APP   ?= dist/flamedesk.app
MACOS_BIN   ?=

.PHONY: all deps build run test fmt-check vet staticcheck unit cross install-check window-test \
	dialog-e2e desktop-e2e windows windows-check winres macos icons install uninstall bench membench fuzz clean \
	references

all: build

deps:
	@scripts/deps.sh all

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/flamedesk

run: deps build
	./$(BIN) $(FILE)

test: deps fmt-check vet staticcheck unit cross windows-check install-check window-test dialog-e2e desktop-e2e

fmt-check:
	@out=$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	$(GO) run $(STATICCHECK) ./...

# The tests run with a scratch HOME and XDG folders, so that none can read or write the user's
# settings, cache or recent list; Go's own caches and settings stay where they are.
SCRATCH_HOME = d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	export GOCACHE="$$($(GO) env GOCACHE)" GOMODCACHE="$$($(GO) env GOMODCACHE)" \
	  GOPATH="$$($(GO) env GOPATH)" GOENV="$$($(GO) env GOENV)" HOME="$$d" \
	  XDG_CONFIG_HOME="$$d/.config" XDG_CACHE_HOME="$$d/.cache" XDG_DATA_HOME="$$d/.local/share" \
	  XDG_STATE_HOME="$$d/.local/state" &&

# Tests whose files are only in the optional corpus skip themselves; say so once, visibly.
unit:
	@if [ -z "$$FLAMEDESK_CORPUS" ]; then echo "unit: FLAMEDESK_CORPUS is not set: the tests of the optional corpus" \
	  "(gen-trace-large, the tsc profile, 4 large DevTools traces, their references) are skipped;" \
	  "README.md, \"Test data\", says how to run them"; fi
	@(unset FLAMEDESK_CORPUS; $(SCRATCH_HOME) $(GO) test -race -timeout 25m ./...)
	@if [ -n "$$FLAMEDESK_CORPUS" ]; then echo "unit: again with the corpus at $$FLAMEDESK_CORPUS (without -race: the large files under the race detector cost minutes and add no coverage of concurrency)"; \
	  ($(SCRATCH_HOME) $(GO) test ./...); fi

# Windows builds without cgo; CI checks that it still does.
cross:
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/flamedesk

# bin/flamedesk.exe, a GUI-subsystem binary (no console window), with the icon, the version
# resource and the manifest linked in from the .syso files that winres writes.
windows: winres
	GOOS=windows GOARCH=amd64 $(GO) build -ldflags '$(LDFLAGS) -H=windowsgui' -o bin/flamedesk.exe ./cmd/flamedesk

# Installs the binary, the desktop entry, the icons and the MIME types under PREFIX, then refreshes
# the desktop and MIME databases where their tools exist.
install: build
	install -Dm755 $(BIN) $(PREFIX)/bin/flamedesk
	install -Dm644 packaging/linux/flamedesk.desktop $(PREFIX)/share/applications/flamedesk.desktop
	install -Dm644 packaging/linux/flamedesk-mime.xml $(PREFIX)/share/mime/packages/flamedesk.xml
	install -Dm644 assets/icon.svg $(PREFIX)/share/icons/hicolor/scalable/apps/flamedesk.svg
	for s in $(ICON_SIZES); do \
	  install -Dm644 assets/icons/flamedesk-$$s.png $(PREFIX)/share/icons/hicolor/$${s}x$${s}/apps/flamedesk.png; \
	done
	-command -v update-desktop-database >/dev/null && update-desktop-database -q $(PREFIX)/share/applications
	-command -v update-mime-database >/dev/null && update-mime-database $(PREFIX)/share/mime
	-command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t $(PREFIX)/share/icons/hicolor
	@echo "installed under $(PREFIX)"

uninstall:
	rm -f $(PREFIX)/bin/flamedesk $(PREFIX)/share/applications/flamedesk.desktop \
	  $(PREFIX)/share/mime/packages/flamedesk.xml $(PREFIX)/share/icons/hicolor/scalable/apps/flamedesk.svg
	for s in $(ICON_SIZES); do rm -f $(PREFIX)/share/icons/hicolor/$${s}x$${s}/apps/flamedesk.png; done
	-command -v update-desktop-database >/dev/null && update-desktop-database -q $(PREFIX)/share/applications
	-command -v update-mime-database >/dev/null && update-mime-database $(PREFIX)/share/mime

# Installs into a scratch prefix, validates the desktop entry and the MIME types, and uninstalls.
install-check:
	@set -e; d=$$(mktemp -d); \
	$(MAKE) -s install PREFIX=$$d >/dev/null 2>&1; \
	desktop-file-validate $$d/share/applications/flamedesk.desktop; \
	test -x $$d/bin/flamedesk; \
	test -f $$d/share/mime/application/x-cpuprofile.xml; \
	test -f $$d/share/icons/hicolor/48x48/apps/flamedesk.png; \
	$(MAKE) -s uninstall PREFIX=$$d >/dev/null 2>&1; \
	test ! -e $$d/bin/flamedesk; \
	rm -rf $$d; echo "install-check: ok"

# The window tests start their own Xvfb and drive the real binary with xdotool.
window-test: build
	@$(SCRATCH_HOME) FLAMEDESK_BIN=$(CURDIR)/$(BIN) $(GO) test -tags windowtest -count=1 -timeout 15m ./app/wintest/

# Ctrl+O in the real window, then the portal, zenity and builtin dialogs driven with xdotool.
dialog-e2e: build
	packaging/test/e2e-dialog.sh $(CURDIR)/$(BIN)

# make install into a scratch prefix, MIME types, default application, a double click (gio open).
desktop-e2e:
	packaging/test/desktop-e2e.sh

# Builds bin/flamedesk.exe and reads its resources back: the icon, the version and the manifest
# must all be in the binary.
windows-check: windows
	@set -e; d=$$(mktemp -d); \
	$(GO) run $(GOWINRES) extract --dir $$d bin/flamedesk.exe >/dev/null; \
	test -s "$$d/#1_0000.ico"; \
	for r in RT_GROUP_ICON RT_VERSION RT_MANIFEST; do \
	  grep -q "\"$$r\"" $$d/winres.json || { echo "windows-check: no $$r in bin/flamedesk.exe" >&2; exit 1; }; \
	done; \
	rm -rf $$d; echo "windows-check: ok"

# go-winres writes cmd/flamedesk/rsrc_windows_*.syso (ignored by git, made afresh on every build),
# which go build links into Windows binaries only.
winres:
	$(GO) run $(GOWINRES) make --in packaging/windows/winres.json --arch amd64,arm64 \
	  --out cmd/flamedesk/rsrc --file-version $(WIN_VERSION) --product-version '$(VERSION)'

# flamedesk.app with Info.plist (document types) and the .icns. Gio needs cgo and Apple's SDK on
# macOS, so the binary is built on a Mac; elsewhere MACOS_BIN=path assembles a bundle around a
# binary built there.
macos:
ifeq ($(shell uname -s),Darwin)
	CGO_ENABLED=1 $(GO) build -ldflags '$(LDFLAGS)' -o dist/flamedesk-darwin ./cmd/flamedesk
	sh packaging/macos/bundle.sh dist/flamedesk-darwin $(MACOS_APP) '$(VERSION)'
else ifneq ($(MACOS_BIN),)
	sh packaging/macos/bundle.sh '$(MACOS_BIN)' $(MACOS_APP) '$(VERSION)'
else
	@echo "make macos: build on a Mac, or give MACOS_BIN=path/to/a/darwin/flamedesk to assemble the bundle" >&2; exit 1
endif

# Redraws the PNG sizes and the macOS .icns from assets/icon.svg (pure Go, byte-for-byte
# reproducible); the output is committed, and go test ./packaging/icongen fails when it is stale.
icons:
	$(GO) run ./packaging/icongen -svg assets/icon.svg -png-dir assets/icons -icns packaging/macos/flamedesk.icns

# The Go benchmarks, then each goal of issue #18 measured and printed beside it (scripts/bench.sh;
# the DevTools engine comes from scripts/references, Node 20+ and npm; the window runs under Xvfb).
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...
	scripts/bench.sh

# Peak RSS of a load against the JSON's size (FILE, default gen-trace-large from the corpus);
# MEMBENCH_WINDOW=1 also measures the window under Xvfb after a minute of navigation.
membench: build
	scripts/membench.sh $(if $(MEMBENCH_WINDOW),--window) $(FILE)

# Runs every fuzz target for FUZZTIME each.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

# Remakes the DevTools and Lighthouse references in testdata/conformance/golden from the fixtures
# in testdata/fixtures, with the trace engine and Lighthouse pinned in scripts/references (needs
# Node 20+ and npm; the tests themselves never need Node).
references:
	cd scripts/references && npm ci --no-audit --no-fund && \
	  node --max-old-space-size=6000 references.mjs --refresh --out ../../testdata/conformance/golden ../../testdata/fixtures && \
	  node references.mjs --timelines-json --out ../../core/timelines/testdata \
	    ../../core/timelines/testdata/edge-kinds.json ../../core/timelines/testdata/many-stamps.json

clean:
	rm -rf bin dist
	$(GO) clean -testcache
