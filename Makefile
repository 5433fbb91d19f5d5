# eSSH — two commands on a fresh Debian 12 machine, as root:
#   make run    install what is missing, build, open eSSH
#   make test   install what is missing, start the real test servers, run the whole suite
SHELL := /bin/bash
.DEFAULT_GOAL := run

SWIFT ?= swift
CONFIG ?= debug
# libssh2 1.11.1 built once from Debian 13's source package plus eSSH's patches into .build-libssh2/ and linked
# statically, always: never a system libssh2, which has none of the patches (Sources/CLibSSH2/libssh2-from-debian.sh).
LIBSSH2 := Sources/CLibSSH2/libssh2-from-debian.sh
LIBSSH2_PC := $(shell $(LIBSSH2) pkg-config-path 2>/dev/null)
export PKG_CONFIG_PATH := $(LIBSSH2_PC)$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))
# Debian packages eSSH needs to build, run and test. Only the missing ones are installed. openssh-client: ssh-keygen
# makes the key pairs of `essh key generate`. libpq-dev: the team layer's PostgreSQL client (CLibPQ). postgresql and
# openssl: the throwaway clusters of the team tests and their TLS certificates (TestSupport's PostgresCluster).
BUILD_DEPS := pkg-config libncurses-dev libsqlite3-dev libssl-dev zlib1g-dev dpkg-dev patch gcc make openssh-client libpq-dev
TEST_DEPS := openssh-server openssh-client tmux dma python3 python3-venv iproute2 procps net-tools zsh fish sudo age postgresql openssl
BENCH_DEPS := hyperfine nmap valgrind time tmux sqlite3 python3 procps pssh rsync
HARNESS := Tests/Harness/test-servers.sh
# Test targets that need no servers, no tmux and no MTA (`make test-fast`).
FAST_TESTS := ^(BasicsTests|TextWidthTests|AppCoreTests|AppTests|TUIKitTests|NetParsersTests|InventoryTests|MailTests|FleetTests|LocalProcessTests|OperationsTests|TransferTests|VaultTests)\.

.PHONY: libssh2 libssh2-asan test-libssh2 run build release test test-fast check-imports check-io test-clone deps test-deps test-venv bench-deps bench fuzz fuzz-merge fuzz-replay servers-start servers-stop clean bench-jc install install-files uninstall man

define apt_install
	@missing=""; for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing missing Debian packages:$$missing"; \
		if [ "$$(id -u)" != 0 ]; then echo "Run as root (or install:$$missing) — apt-get needs root." >&2; exit 1; fi; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_DEPS))
	@command -v $(SWIFT) >/dev/null || { echo "The Swift toolchain (6.0 or later) is not on PATH." >&2; exit 1; }
	@$(LIBSSH2) build

# Fetch and build libssh2 again (after a failed download, say).
libssh2:
	rm -rf .build-libssh2
	@$(LIBSSH2) build

test-deps: deps
	$(call apt_install,$(TEST_DEPS))

# The same libssh2 (Debian's source + eSSH's patches) built with AddressSanitizer into .build-libssh2-asan/, and the
# small C driver of the hostile-server cases linked against it (Tests/LibSSH2/hostile-client.c). Rebuilt when the
# patches change; about 15 s the first time, nothing after.
LIBSSH2_ASAN := .build-libssh2-asan
HOSTILE_CLIENT := $(LIBSSH2_ASAN)/hostile-client
libssh2-asan: deps
	@$(LIBSSH2) asan
	@$(MAKE) --no-print-directory $(HOSTILE_CLIENT)

$(LIBSSH2_ASAN)/install/lib/libssh2.a:
	@$(LIBSSH2) asan

$(HOSTILE_CLIENT): Tests/LibSSH2/hostile-client.c $(LIBSSH2_ASAN)/install/lib/libssh2.a
	cc -fsanitize=address -fno-omit-frame-pointer -g -O1 -I $(LIBSSH2_ASAN)/install/include -o $@ $< \
		$(LIBSSH2_ASAN)/install/lib/libssh2.a -lssl -lcrypto -lz

# The hostile-server cases of docs/SECURITY.md: each upstream libssh2 fix eSSH patches, played by
# Tests/LibSSH2/hostile-ssh-server.py against the ASan driver; no AddressSanitizer report and a clean refusal pass.
test-libssh2: libssh2-asan test-venv
	@Tests/LibSSH2/run-hostile.sh

bench-deps: test-deps
	$(call apt_install,$(BENCH_DEPS))

# The hostile SFTP server of the tests (Tests/Harness/hostile-sftp.py) runs on paramiko from PyPI, in a private
# virtual environment made once in .test-venv (TestSupport's HostileSFTPServer finds it there).
TEST_VENV := .test-venv
PARAMIKO := 5.1.0
test-venv: test-deps
	@$(TEST_VENV)/bin/python -c 'import sys, paramiko; sys.exit(paramiko.__version__ != "$(PARAMIKO)")' 2>/dev/null || { \
		echo "Making $(TEST_VENV) (paramiko $(PARAMIKO) for the hostile SFTP server)"; rm -rf $(TEST_VENV); \
		python3 -m venv $(TEST_VENV) && $(TEST_VENV)/bin/pip install --quiet --disable-pip-version-check \
			paramiko==$(PARAMIKO) || { rm -rf $(TEST_VENV); exit 1; }; }

build: deps
	$(SWIFT) build -c $(CONFIG)

release: deps
	$(SWIFT) build -c release

run: release
	.build/release/essh $(ARGS)

servers-start: test-deps
	$(HARNESS) start

servers-stop:
	$(HARNESS) stop

# The dependency rule (docs/ARCHITECTURE.md), checked against Package.swift: a target imports only what it declares.
check-imports:
	@$(SWIFT) package dump-package | python3 Tests/Harness/check-imports.py

# No try!, no FileHandle writes, no print( in Sources: every command writes through one output path (check-io.sh).
check-io:
	@Tests/Harness/check-io.sh

# The harness started from clones under /tmp and under $$HOME, with a key login in each (a clone anywhere works).
test-clone: test-deps
	@Tests/Harness/clone-check.sh

# The whole suite against the real servers. A harness that cannot start says why in one line before any test
# runs; the servers are stopped whatever the tests do, quietly, so the runner's summary is the last thing printed;
# the suite's exit code is kept.
test: test-deps test-venv check-imports check-io test-libssh2
	$(SWIFT) build --build-tests
	$(SWIFT) build --product generate-manual
	@Tests/Harness/clone-check.sh
	@$(HARNESS) start
	@rc=0; LANG=C.UTF-8 $(SWIFT) test --skip-build $(TEST_ARGS) || rc=$$?; $(HARNESS) stop >/dev/null 2>&1; exit $$rc

# The tests that need no servers (pure cores, parsers, the store, fakes): seconds, for the edit-build-test loop.
test-fast: deps check-imports
	LANG=C.UTF-8 $(SWIFT) test --filter '$(FAST_TESTS)'

bench: bench-deps release
	$(HARNESS) start
	@rc=0; bench/run.sh || rc=$$?; $(HARNESS) stop; exit $$rc

clean:
	rm -rf .build

# `make install` (as root, or PREFIX=~/.local for one user; DESTDIR for packaging): the release binary, the shell
# completions that binary generates (swift-argument-parser's scripts; saved server names and tags complete from the
# database) and the man page generated from the same command tree by swift-argument-parser's generate-manual tool,
# so neither can drift from `essh --help`. `make uninstall` removes exactly those files. `install-files` installs an
# already built ESSH_BIN (the tests install the debug binary into a temporary DESTDIR).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
ESSH_BIN ?= .build/release/essh
MANUAL_TOOL ?= .build/debug/generate-manual
MAN_DIR := .build/man
INSTALLED := $(BINDIR)/essh $(DATADIR)/bash-completion/completions/essh $(DATADIR)/zsh/site-functions/_essh \
	$(DATADIR)/fish/vendor_completions.d/essh.fish $(MANDIR)/man1/essh.1

install: release
	@$(MAKE) --no-print-directory install-files

$(MANUAL_TOOL):
	$(SWIFT) build --product generate-manual

man: $(MANUAL_TOOL)
	@test -x $(ESSH_BIN) || { echo "$(ESSH_BIN) is not built: run make release (or make install)." >&2; exit 1; }
	@mkdir -p $(MAN_DIR)
	$(MANUAL_TOOL) $(ESSH_BIN) --output-directory $(MAN_DIR)

install-files: man
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/bash-completion/completions \
		$(DESTDIR)$(DATADIR)/zsh/site-functions $(DESTDIR)$(DATADIR)/fish/vendor_completions.d $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(ESSH_BIN) $(DESTDIR)$(BINDIR)/essh
	$(ESSH_BIN) --generate-completion-script bash > $(DESTDIR)$(DATADIR)/bash-completion/completions/essh
	$(ESSH_BIN) --generate-completion-script zsh > $(DESTDIR)$(DATADIR)/zsh/site-functions/_essh
	$(ESSH_BIN) --generate-completion-script fish > $(DESTDIR)$(DATADIR)/fish/vendor_completions.d/essh.fish
	install -m 644 $(MAN_DIR)/essh.1 $(DESTDIR)$(MANDIR)/man1/essh.1

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))

# libFuzzer over eSSH's readers of untrusted text, FUZZ_SECONDS (default 60) each: the network parsers, ssh_config,
# known_hosts, the SSH banner and KEXINIT, DEST, mail addresses and headers, the text sanitiser
# (`Tests/Fuzz/fuzz.sh list`). `make fuzz-banner` or `make fuzz FUZZ_TARGETS="banner mail"` runs some of them;
# `make fuzz-merge` minimises the kept corpus (Tests/Fuzz/corpus) with what the runs found; `make fuzz-replay` runs
# the kept corpus once. One binary per target, built with swiftc from the sources it needs (-O, AddressSanitizer)
# into .build-fuzz, never a SwiftPM target: SwiftPM renames an executable's main and the link against libFuzzer's
# main fails, and GRDB and swift-crypto cannot be compiled that way (Tests/Fuzz/fuzz.sh says how it is done).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?=
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Tests/Fuzz/fuzz.sh run $(FUZZ_TARGETS)
fuzz-merge: deps
	Tests/Fuzz/fuzz.sh merge $(FUZZ_TARGETS)
fuzz-replay: deps
	Tests/Fuzz/fuzz.sh replay $(FUZZ_TARGETS)
fuzz-%: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) Tests/Fuzz/fuzz.sh run $*

# jc (PyPI) is the peer tool of bench/bench-parse.sh.
bench-deps: bench-jc
bench-jc:
	@command -v jc >/dev/null || python3 -m pip install --quiet jc

# TUIKitDemo: the terminal toolkit and its ncurses backend in a real terminal (F10 quits; ARGS="--lines 5000").
.PHONY: tui-demo
tui-demo: deps
	$(SWIFT) build --product TUIKitDemo
	.build/debug/TUIKitDemo $(ARGS)
