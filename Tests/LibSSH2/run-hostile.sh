#!/usr/bin/env bash
# The hostile-server cases for eSSH's libssh2 patches (docs/SECURITY.md): each case starts
# Tests/LibSSH2/hostile-ssh-server.py on a port it binds itself (port 0, printed on its first line), runs the
# AddressSanitizer-built driver (Tests/LibSSH2/hostile-client.c linked against .build-libssh2-asan) against it, and
# checks the outcome. Each case names the driver's mode:
#   handshake  banner, key exchange, the ssh-userauth service request
#   exec       the handshake, login "none", a session channel, exec, read to EOF, exit status and signal
#   sftp       the handshake, login "none", the SFTP subsystem, opendir, readdir to the end, close
#   ignore     the exec login and channel with stderr ignored (eSSH's jump-host relay), then the window adjustment
#              for ignored stderr made to block (EAGAIN) and retried (hostile-client.c says how)
#   sftp-long:FUNCTION  the sftp login and start, then one SFTP call (FUNCTION) given a name length of 4 GiB - 3;
#              libssh2 must refuse it (LIBSSH2_ERROR_OUT_OF_BOUNDARY) before building the request
#   kbd-long   the handshake, then keyboard-interactive given a user name length of 4 GiB - 4; libssh2 must refuse
#              it (LIBSSH2_ERROR_OUT_OF_BOUNDARY) before building the request
#   key        the handshake, then a public-key login from a private key file the case writes (the file is the
#              hostile input: hostile-ssh-server.py --write-key CASE FILE)
# and what must happen:
#   ok       the mode completes (the controls: the server is a correct SSH server; and cases where libssh2 must
#            carry on, ignoring what was malformed)
#   refused  libssh2 refuses with an error (driver exit 2, "… refused rc=N: …")
# and, in all, that AddressSanitizer reported nothing. No single allocation in these cases needs a GiB:
# max_allocation_size_mb=1024 makes one an AddressSanitizer report. LeakSanitizer is on ("leaks" column) except
# in the ignore case, which ends with the session suspended. Prints one line
# per case, then "N passed, N failed"; exits non-zero when a case failed.
#
#   run-hostile.sh                 all cases (make test-libssh2; make test runs it)
#   run-hostile.sh CASE...         some of them
#   HOSTILE_CLIENT=path run-hostile.sh   another driver build, e.g. one linked against libssh2 without the patches
#                                  (how the commit messages show each case failing without its patch)
#
# Every wait has a deadline: the server's port within 10 s, the driver within 60 s (its own libssh2 timeout is
# 10 s), the server's exit within 10 s after the driver's. No fixed sleeps.
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
CLIENT="${HOSTILE_CLIENT:-$ROOT/.build-libssh2-asan/hostile-client}"
PYTHON="${HOSTILE_PYTHON:-$ROOT/.test-venv/bin/python}"
SERVER="$HERE/hostile-ssh-server.py"

# case                  mode       expect   leaks  upstream fix it covers
CASES="
ok-curve25519           handshake  ok       1      control
ok-chacha               handshake  ok       1      control
ok-dh14                 handshake  ok       1      control
ok-gex                  handshake  ok       1      control
exchange-keys-null      handshake  refused  1      631e2f82
kexinit-no-lang         handshake  refused  1      4d60ec37
service-accept-short    handshake  refused  1      ce2a7b80
chacha-short-length     handshake  refused  1      15257c08
dh-f-one                handshake  refused  1      fcf83078
bad-signature           handshake  refused  1      34b45a08
gex-small-prime         handshake  refused  1      fe907ca4
ext-info-count          handshake  refused  1      fe907ca4
ok-etm                  handshake  ok       1      control
etm-padding-too-long    handshake  refused  1      18c3a345
etm-short-packet        handshake  refused  1      42e33d81
ok-exec                 exec       ok       1      control
window-adjust-wrap      exec       refused  1      a0057aef
exit-signal-short-name  exec       ok       1      590cdfe7
exit-signal-twice       exec       ok       1      0a17ea04
ignored-stderr-eagain   ignore     ok       0      bf7fa4c1
ok-sftp                 sftp       ok       1      control
sftp-readdir-huge       sftp       refused  1      e3379a5c
sftp-long-open          sftp-long:open     refused  1  ff50682c
sftp-long-unlink        sftp-long:unlink   refused  1  ff50682c
sftp-long-rename        sftp-long:rename   refused  1  ff50682c
sftp-long-mkdir         sftp-long:mkdir    refused  1  ff50682c
sftp-long-rmdir         sftp-long:rmdir    refused  1  ff50682c
sftp-long-stat          sftp-long:stat     refused  1  ff50682c
sftp-long-symlink       sftp-long:symlink  refused  1  ff50682c
sftp-long-statvfs       sftp-long:statvfs  refused  1  ff50682c
userauth-kbd-long       kbd-long   refused  1      66d73ffe
key-private-ends-at-type key       refused  1      0fcb6625
"

[ -x "$CLIENT" ] || { echo "run-hostile: no driver at $CLIENT (run: make libssh2-asan)" >&2; exit 1; }
[ -x "$PYTHON" ] || { echo "run-hostile: no $PYTHON (run: make test-venv)" >&2; exit 1; }
"$PYTHON" -c 'import cryptography' 2>/dev/null \
    || { echo "run-hostile: $PYTHON lacks cryptography (run: make test-venv)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0 failed=0 start=$SECONDS

run_case() {
    local name="$1" mode="$2" expect="$3" leaks="$4" fix="$5" out="$work/$1" port="" line srv rc arg=""
    [ "$mode" = handshake ] || arg="${mode/:/ }"
    if [ "$mode" = key ]; then
        if ! "$PYTHON" "$SERVER" --write-key "$name" "$out.key" 2>"$out.server"; then
            echo "FAIL $name ($fix): could not write its key file: $(tail -n1 "$out.server")"
            return 1
        fi
        arg="key $out.key"
    fi
    coproc SRV { exec "$PYTHON" "$SERVER" "$name" 2>"$out.server"; }
    srv=$SRV_PID
    if IFS= read -r -t 10 line <&"${SRV[0]}" && [[ "$line" == PORT\ * ]]; then port="${line#PORT }"; fi
    if [ -z "$port" ]; then
        kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
        echo "FAIL $name ($fix): the hostile server gave no port within 10 s: $(tail -n1 "$out.server")"
        return 1
    fi
    local asan="detect_leaks=$leaks:max_allocation_size_mb=1024:abort_on_error=0:exitcode=86"
    ASAN_OPTIONS="$asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
        timeout 60 "$CLIENT" "$port" $arg >"$out.client" 2>"$out.asan"
    rc=$?
    # The server ends when the driver hangs up (or at its own 20 s deadline); give it 10 s more at most.
    timeout 10 tail -s 0.05 --pid="$srv" -f /dev/null 2>/dev/null
    kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
    local verdict="" result
    result="$(head -n1 "$out.client")"
    if grep -qE '(Address|Leak)Sanitizer' "$out.asan"; then
        verdict="$(grep -m1 -E '^SUMMARY: AddressSanitizer' "$out.asan" \
            || grep -m1 -E 'ERROR: (Address|Leak)Sanitizer' "$out.asan")"
    elif [ $rc -eq 124 ]; then
        verdict="the driver hung (killed after 60 s)"
    elif [ "$expect" = ok ] && [ $rc -ne 0 ]; then
        verdict="expected the $mode to complete, got exit $rc: ${result:-$(tail -n1 "$out.asan")}"
    elif [ "$expect" = refused ] && [ $rc -eq 0 ]; then
        verdict="libssh2 accepted it: $result"
    elif [ "$expect" = refused ] && [ $rc -ne 2 ]; then
        verdict="expected a clean refusal (exit 2), got exit $rc: ${result:-$(tail -n1 "$out.asan")}"
    fi
    if [ -n "$verdict" ]; then
        echo "FAIL $name ($fix): $verdict"
        [ -n "${HOSTILE_VERBOSE:-}" ] && sed 's/^/    /' "$out.asan" "$out.server"
        return 1
    fi
    echo "ok   $name ($fix): ${result}"
    return 0
}

while read -r name mode expect leaks fix; do
    [ -n "$name" ] || continue
    if [ $# -gt 0 ]; then
        match=0; for c in "$@"; do [ "$c" = "$name" ] && match=1; done
        [ $match = 1 ] || continue
    fi
    if run_case "$name" "$mode" "$expect" "$leaks" "$fix"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done <<<"$CASES"

echo "libssh2 hostile-server cases ($(basename "$CLIENT"), $((SECONDS - start)) s): $passed passed, $failed failed"
[ $failed -eq 0 ] && [ $passed -gt 0 ]
