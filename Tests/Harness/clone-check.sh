#!/usr/bin/env bash
# Does the test harness work wherever a new user clones eSSH?
#
#   Tests/Harness/clone-check.sh
#
# Clones this repository (the harness as it is in the working tree laid over it) into two places a new user might
# pick, each with awkward parents: under /tmp (world-writable, sticky) inside a private 0700 folder, in a folder
# whose name has a space; and under $HOME (0700 for root). In each clone it starts the test servers and logs in with
# a key using OpenSSH's own client, then stops them and removes the clone. sshd refuses authorized_keys files below
# such parents (StrictModes) or cannot read them, so this fails if the harness ever keeps them inside the checkout
# again. Needs root and what `make test` installs; takes a few seconds.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

fail() { echo "clone-check: $*" >&2; exit 1; }

check_in() { # parent folder (created by the caller)
    local parent=$1 clone state env port
    clone="$parent/my essh"
    git clone -q --no-hardlinks "$repo" "$clone" || fail "git clone into $clone failed"
    cp -a "$here/." "$clone/Tests/Harness/"
    state="$clone/.test-servers"
    if ! "$clone/Tests/Harness/test-servers.sh" start >/dev/null; then
        fail "the test servers did not start from a clone in $clone (message above)"
    fi
    env="$state/servers.env"
    port=$(sed -n 's/^ESSH_TEST_PORT=//p' "$env")
    local out rc=0
    out=$(ssh -F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes -o IdentityAgent=none \
        -o StrictHostKeyChecking=yes -o "UserKnownHostsFile=\"$state/known_hosts\"" -o ConnectTimeout=10 \
        -i "$state/keys/id_ed25519" -p "$port" essh-test@127.0.0.1 'echo key-login-ok' 2>&1) || rc=$?
    local log
    log=$(grep -E 'Authentication refused|Could not open|bad ownership' "$state/main.log" | tail -n 1 || true)
    "$clone/Tests/Harness/test-servers.sh" stop
    if [ "$rc" != 0 ] || [ "$out" != key-login-ok ]; then
        fail "a key login failed with the harness run from a clone in $clone: ${out//$'\n'/; } ${log:+(sshd: $log)}"
    fi
    echo "clone-check: key login works from a clone in $clone"
}

[ "$(id -u)" = 0 ] || fail "must run as root (the harness starts sshd)"
command -v ssh >/dev/null || fail "the OpenSSH client is missing: run 'make test', which installs it"

tmp_parent=$(mktemp -d /tmp/essh-clone-check.XXXXXX)          # 0700, below the world-writable /tmp
home_parent=$(mktemp -d "${HOME:-/root}/.essh-clone-check.XXXXXX")
trap 'rm -rf "$tmp_parent" "$home_parent"' EXIT
check_in "$tmp_parent"
check_in "$home_parent"
