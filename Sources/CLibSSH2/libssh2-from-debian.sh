#!/usr/bin/env bash
# libssh2 for eSSH: always 1.11.1 built once from Debian 13's own source package plus eSSH's patches, into an ignored
# folder of the checkout, linked statically. A system libssh2 is never used, whatever its version: it has none of
# eSSH's patches (the security fixes of docs/SECURITY.md among them), and no test ever ran against it.
#
#   libssh2-from-debian.sh pkg-config-path   print the folder to put first in PKG_CONFIG_PATH (this build's .pc)
#   libssh2-from-debian.sh build             fetch and build now if needed (prints what it did)
#   libssh2-from-debian.sh origin            one line: where the library comes from
#   libssh2-from-debian.sh asan              the same source and patches built with AddressSanitizer (-O1 -g, static)
#                                            into .build-libssh2-asan/install, for Tests/LibSSH2 (fast when built)
#
# eSSH's own patches (Sources/CLibSSH2/patches/*.patch, applied in name order with `patch -p1 --fuzz=0`) go on top of
# Debian's source; the build is redone when they change. A hunk that no longer matches exactly stops the build with a
# sentence naming the patch (never a hunk landed in the wrong place). docs/SECURITY.md lists the security patches
# and their tests.
#
# The source comes from Debian's archive through an apt configuration private to the build folder (its own
# sources.list with one `deb-src … trixie main` line, its own lists and cache): the machine's apt sources are never
# touched. apt checks the Release file's signature with the machine's Debian archive keyring and the .dsc's
# checksums; dpkg-source checks every file of the package against the .dsc (and the upstream tarball's signature
# against the key Debian ships in debian/upstream/). Nothing is vendored into the repository.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
DIR="${ESSH_LIBSSH2_DIR:-$ROOT/.build-libssh2}"
PREFIX="$DIR/install"
SUITE="${ESSH_LIBSSH2_SUITE:-trixie}"
RETRY="make libssh2"
PATCHES="$HERE/patches"
ASAN_DIR="${ESSH_LIBSSH2_ASAN_DIR:-$ROOT/.build-libssh2-asan}"

say() { printf 'libssh2: %s\n' "$*" >&2; }
die() { printf 'libssh2: %s\n' "$*" >&2; exit 1; }

# The patches as one line: their names and a checksum of their contents ("" when there are none).
patches_id() {
    local names
    names="$(cd "$PATCHES" 2>/dev/null && ls -- *.patch 2>/dev/null | sed 's/\.patch$//' | paste -sd, -)"
    [ -n "$names" ] || return 0
    printf '%s (%s)\n' "$names" "$(cat "$PATCHES"/*.patch | sha256sum | cut -c1-12)"
}

# Built, for this checkout's path (a moved checkout's .pc would point at the old folder), with today's patches.
built() {
    [ -f "$PREFIX/lib/libssh2-essh.a" ] && [ -f "$DIR/origin" ] && [ -f "$PREFIX/include/essh_libssh2_origin.h" ] \
        && grep -qxF "prefix=$PREFIX" "$PREFIX/lib/pkgconfig/libssh2.pc" 2>/dev/null \
        && [ "$(cat "$DIR/patches" 2>/dev/null)" = "$(patches_id)" ]
}

# The Debian mirror the machine already uses (deb822 or one-line sources), else deb.debian.org.
mirror() {
    local uri=""
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        uri="$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' \
            /etc/apt/sources.list.d/debian.sources)"
    fi
    if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
        uri="$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^(https?|ftp):/) { print $i; exit } }' \
            /etc/apt/sources.list)"
    fi
    printf '%s\n' "${uri:-http://deb.debian.org/debian}"
}

fetch() {
    local apt="$DIR/apt" uri
    uri="$(mirror)"
    rm -rf "$apt" "$DIR/src"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$DIR/src"
    printf 'deb-src %s %s main\n' "$uri" "$SUITE" >"$apt/sources.list"
    local opts=(-o "Dir::Etc::sourcelist=$apt/sources.list" -o Dir::Etc::sourceparts=/dev/null
        -o "Dir::State::lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Debug::NoLocking=1
        -o APT::Sandbox::User=root -o Acquire::Retries=2)
    say "fetching Debian's $SUITE source package from $uri (private apt configuration in $apt)"
    if ! apt-get "${opts[@]}" -qq update >"$apt/update.log" 2>&1; then
        die "could not read $uri $SUITE's package index: $(grep -m1 -E '^(E|W|Err):' "$apt/update.log" || tail -n1 "$apt/update.log").
  Check the network or proxy (apt's own settings in /etc/apt/apt.conf.d apply), then retry with: $RETRY"
    fi
    if grep -q -E '^W: .*(NO_PUBKEY|not signed|signature)' "$apt/update.log"; then
        die "$SUITE's package index is not signed by a key this machine trusts ($(grep -m1 -E '^W:' "$apt/update.log")).
  Install or update debian-archive-keyring, then retry with: $RETRY"
    fi
    if ! (cd "$DIR/src" && apt-get "${opts[@]}" -qq source --download-only libssh2 >"$apt/source.log" 2>&1); then
        die "could not download the libssh2 source package: $(grep -m1 -E '^(E|W|Err):' "$apt/source.log" || tail -n1 "$apt/source.log").
  Retry with: $RETRY"
    fi
    local dsc
    dsc="$(ls "$DIR/src"/libssh2_*.dsc 2>/dev/null | head -n1)"
    [ -n "$dsc" ] || die "apt fetched no libssh2 .dsc into $DIR/src. Retry with: $RETRY"
    say "unpacking $(basename "$dsc") (dpkg-source checks each file against the .dsc)"
    if ! (cd "$DIR/src" && dpkg-source -x "$(basename "$dsc")" libssh2 >"$apt/unpack.log" 2>&1); then
        die "dpkg-source refused $(basename "$dsc"): $(tail -n1 "$apt/unpack.log"). Retry with: $RETRY"
    fi
    basename "$dsc" .dsc >"$DIR/src/package"
}

# Apply eSSH's patches in name order to the unpacked source $1, logging to $2. --fuzz=0: every hunk's context must
# match exactly (an offset is fine); --forward: a patch already in Debian's source is an error, not skipped quietly.
apply_patches() {
    local src="$1" log="$2" patch
    for patch in "$PATCHES"/*.patch; do
        [ -e "$patch" ] || continue
        say "applying $(basename "$patch")"
        printf '== %s\n' "$(basename "$patch")" >>"$log"
        if ! (cd "$src" && patch -p1 --batch --forward --fuzz=0) <"$patch" >>"$log" 2>&1; then
            die "eSSH's patch $(basename "$patch") no longer applies exactly to $(cat "$(dirname "$src")/package") (patch --fuzz=0: $(grep -m1 -E 'FAILED|Reversed|malformed|can.t find' "$log" || tail -n1 "$log")); the build stopped rather than place a hunk elsewhere. Refresh that patch against this source (see docs/SECURITY.md), then retry with: $RETRY"
        fi
    done
}

build() {
    if built; then return 0; fi
    for tool in apt-get dpkg-source patch make cc pkg-config; do
        command -v "$tool" >/dev/null || die "$tool is missing (run: make deps)"
    done
    for pc in openssl zlib; do
        pkg-config --exists "$pc" || die "the $pc development files are missing (run: make deps)"
    done
    mkdir -p "$DIR"
    fetch
    local src="$DIR/src/libssh2" log="$DIR/build.log"
    apply_patches "$src" "$DIR/apt/unpack.log"
    say "building $(cat "$DIR/src/package") (static, OpenSSL $(pkg-config --modversion openssl), zlib) into $PREFIX"
    rm -rf "$PREFIX"
    if ! (cd "$src" && ./configure --disable-shared --enable-static --with-pic --with-crypto=openssl \
            --with-libz --disable-examples-build --disable-docker-tests --disable-sshd-tests \
            --prefix="$PREFIX" && make -j"$(nproc)" && make install) >"$log" 2>&1; then
        die "the build failed; the last lines of $log:
$(tail -n 15 "$log")"
    fi
    # A name of its own (libssh2-essh.a, -lssh2-essh): with a system libssh2-1-dev installed too (Debian 12's 1.10,
    # Debian 13's unpatched 1.11.1), a link line that also names /usr/lib/x86_64-linux-gnu (other libraries' -L)
    # would otherwise find its libssh2.so for -lssh2 before this archive.
    mv "$PREFIX/lib/libssh2.a" "$PREFIX/lib/libssh2-essh.a"
    rm -f "$PREFIX/lib/libssh2.la"
    sed -i 's/-lssh2\b/-lssh2-essh/' "$PREFIX/lib/pkgconfig/libssh2.pc"
    local version
    version="$(PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig" pkg-config --modversion libssh2)"
    local patched=""
    [ -z "$(patches_id)" ] || patched=" with eSSH's patches $(patches_id)"
    printf 'libssh2 %s built from Debian %s source package %s%s, linked statically\n' \
        "$version" "$SUITE" "$(cat "$DIR/src/package")" "$patched" >"$DIR/origin"
    patches_id >"$DIR/patches"
    # eSSH's shim requires this header (a build against any other libssh2 stops there), and `essh --version` says
    # from it where its libssh2 came from and names every patch.
    {
        printf '#define ESSH_LIBSSH2_ORIGIN "Debian %s source package %s%s, linked statically"\n' \
            "$SUITE" "$(cat "$DIR/src/package")" "$patched"
        # patches/0001-crypt-middle-blocks-in-one-call.patch: AES-GCM is then the fastest cipher (else the slowest).
        if [ -e "$PATCHES/0001-crypt-middle-blocks-in-one-call.patch" ]; then
            echo '#define ESSH_LIBSSH2_CRYPT_BATCHED 1'
        fi
        # patches/0003-concurrent-direct-tcpip-opens.patch: many direct-tcpip opens in flight on one session.
        if [ -e "$PATCHES/0003-concurrent-direct-tcpip-opens.patch" ]; then
            echo '#define ESSH_LIBSSH2_CONCURRENT_OPENS 1'
        fi
    } >"$PREFIX/include/essh_libssh2_origin.h"
    rm -rf "$DIR/apt/cache" "$src"
    # SwiftPM neither recompiles for a changed header of the C module nor relinks for a changed archive: touching the
    # one Swift file that reads essh_libssh2_origin.h makes the next swift build do both (essh --version then names
    # the patches it links; SSHLibraryTests checks that).
    touch "$ROOT/Sources/SSH/SSHLibrary.swift" 2>/dev/null || true
    say "$(cat "$DIR/origin")"
}

# The AddressSanitizer build of the same source and patches, for the hostile-server tests (Tests/LibSSH2): its own
# folder, static, never linked into eSSH. The source package is taken from the main build's folder when it is there
# (the main build keeps the downloaded .dsc and tarballs), else fetched the same way into the ASan folder.
asan_built() {
    [ -f "$ASAN_DIR/install/lib/libssh2.a" ] && [ -f "$ASAN_DIR/install/include/libssh2.h" ] \
        && [ "$(cat "$ASAN_DIR/patches" 2>/dev/null)" = "$(patches_id)" ]
}

asan() {
    if asan_built; then return 0; fi
    RETRY="make libssh2-asan"
    for tool in apt-get dpkg-source patch make cc; do
        command -v "$tool" >/dev/null || die "$tool is missing (run: make deps)"
    done
    local main_src="$DIR/src" dsc
    rm -rf "$ASAN_DIR"
    mkdir -p "$ASAN_DIR/src" "$ASAN_DIR/apt"
    dsc="$(ls "$main_src"/libssh2_*.dsc 2>/dev/null | head -n1 || true)"
    if [ -n "$dsc" ]; then
        cp "$main_src"/libssh2_* "$ASAN_DIR/src/"
        say "unpacking $(basename "$dsc") for the AddressSanitizer build"
        (cd "$ASAN_DIR/src" && dpkg-source -x "$(basename "$dsc")" libssh2 >"$ASAN_DIR/apt/unpack.log" 2>&1) \
            || die "dpkg-source refused $(basename "$dsc"): $(tail -n1 "$ASAN_DIR/apt/unpack.log"). Retry with: $RETRY"
        basename "$dsc" .dsc >"$ASAN_DIR/src/package"
    else
        DIR="$ASAN_DIR" fetch
    fi
    local src="$ASAN_DIR/src/libssh2" log="$ASAN_DIR/build.log"
    apply_patches "$src" "$ASAN_DIR/apt/unpack.log"
    say "building $(cat "$ASAN_DIR/src/package") with AddressSanitizer (static) into $ASAN_DIR/install"
    if ! (cd "$src" && ./configure --disable-shared --enable-static --with-crypto=openssl --with-libz \
            --disable-examples-build --disable-docker-tests --disable-sshd-tests --prefix="$ASAN_DIR/install" \
            CFLAGS="-fsanitize=address -fno-omit-frame-pointer -g -O1" LDFLAGS="-fsanitize=address" \
            && make -j"$(nproc)" -C src && make -C src install \
            && mkdir -p "$ASAN_DIR/install/include" && cp include/*.h "$ASAN_DIR/install/include/") >"$log" 2>&1; then
        die "the AddressSanitizer build failed; the last lines of $log:
$(tail -n 15 "$log")"
    fi
    patches_id >"$ASAN_DIR/patches"
    rm -rf "$src"
    say "AddressSanitizer build of $(cat "$ASAN_DIR/src/package") with patches $(patches_id) in $ASAN_DIR/install"
}

case "${1:-}" in
    build) build ;;
    asan) asan ;;
    pkg-config-path) echo "$PREFIX/lib/pkgconfig" ;;
    origin)
        if built; then cat "$DIR/origin"
        else echo "libssh2 not built yet (run: $RETRY)"; fi ;;
    *) die "usage: $0 build | asan | pkg-config-path | origin" ;;
esac
