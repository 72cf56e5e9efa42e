# flamedesk — `make run` and `make test` set up a fresh Debian/Ubuntu machine by themselves.
GO          ?= go
BIN         := bin/flamedesk
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS     := -X main.version=$(VERSION)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
FUZZTIME    ?= 30s
FILE        ?=
BENCHTIME   ?= 3x

.PHONY: all deps build run test fmt-check vet staticcheck unit cross window-test windows bench fuzz clean

all: build

deps:
	@scripts/deps.sh all

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/flamedesk

run: deps build
	./$(BIN) $(FILE)

test: deps fmt-check vet staticcheck unit cross window-test

fmt-check:
	@out=$$(gofmt -l $$(git ls-files -co --exclude-standard '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

staticcheck:
	$(GO) run $(STATICCHECK) ./...

unit:
	$(GO) test -race ./...

# Windows builds without cgo; CI checks that it still does.
cross:
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/flamedesk

# bin/flamedesk.exe, a GUI-subsystem binary (no console window).
windows:
	GOOS=windows GOARCH=amd64 $(GO) build -ldflags '$(LDFLAGS) -H=windowsgui' -o bin/flamedesk.exe ./cmd/flamedesk

# The window tests start their own Xvfb and drive the real binary with xdotool.
window-test: build
	FLAMEDESK_BIN=$(CURDIR)/$(BIN) $(GO) test -tags windowtest -count=1 -timeout 15m ./app/wintest/

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

# Runs every fuzz target for FUZZTIME each.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

clean:
	rm -rf bin dist
	$(GO) clean -testcache
