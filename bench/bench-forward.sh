#!/usr/bin/env bash
# Port forwarding (issue 15 §4): essh forward -L vs ssh -N -L through the same sshd (the harness's, on 127.0.0.1),
# side by side in one run (bench/forward-bench.py, rounds interleaved):
#   1. 1 GB downloaded through the tunnel (a sendfile source behind the sshd)      target: essh ≥ 1.0× ssh's throughput
#   2. 1,000 round trips of 64 bytes over one forwarded connection (a Python echo) target: essh ≤ 1.1× ssh's time
# ssh runs twice: with aes128-gcm@openssh.com (essh's default cipher, so the same crypto) and with its own default
# (chacha20-poly1305). Tunnel CPU is the tunnel process's user + system time around each run.
# Writes bench/results/forward-$BENCH_DATE.md. `BENCH_ONLY=forward make bench`; BENCH_RUNS (default 5) rounds.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${ESSH:?run through make bench}"
# shellcheck disable=SC1090
. "$ESSH_TEST_SERVERS"
out=bench/results/forward-$BENCH_DATE.md
unset SSH_AUTH_SOCK
dest="$ESSH_TEST_USER@$ESSH_TEST_HOST"
gcm=aes128-gcm@openssh.com
rounds=${BENCH_RUNS:-5}
size=1000000000
data=bench/work/forward-1g
mkdir -p bench/work
if [ "$(stat -c %s "$data" 2>/dev/null || echo 0)" != $size ]; then head -c $size /dev/urandom > "$data"; fi
cat "$data" > /dev/null

essh_tunnel="$ESSH forward --known-hosts $ESSH_TEST_KNOWN_HOSTS -p $ESSH_TEST_PORT -i $ESSH_TEST_KEYS/id_ed25519 --host-key-policy strict -L {source_port}:127.0.0.1:{source} -L {echo_port}:127.0.0.1:{echo} $dest"
ssh_base="ssh -N -F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes -o UserKnownHostsFile=$ESSH_TEST_KNOWN_HOSTS -o GlobalKnownHostsFile=/dev/null -p $ESSH_TEST_PORT -i $ESSH_TEST_KEYS/id_ed25519 -L {source_port}:127.0.0.1:{source} -L {echo_port}:127.0.0.1:{echo}"
ssh_gcm="$ssh_base -c $gcm $dest"
ssh_default="$ssh_base $dest"

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
table=$(python3 bench/forward-bench.py --rounds "$rounds" --bytes $size --file "$data" \
    "essh forward" "$essh_tunnel" "ssh -N -L (aes128-gcm)" "$ssh_gcm" "ssh -N -L (default cipher)" "$ssh_default")
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

{
    echo "# Port forwarding: essh forward vs ssh -N -L (issue 15)"
    echo
    bash bench/machine.sh
    echo "- OpenSSH client: $(ssh -V 2>&1)"
    echo "- server: the harness's OpenSSH sshd on 127.0.0.1 (Tests/Harness/test-servers.sh), user key ed25519, no agent;"
    echo "  the source and the echo server are Python on 127.0.0.1 behind it (sshd connects to them)"
    echo "- load average (1, 5, 15 min): before $load_before, after $load_after"
    echo
    echo "## Commands"
    echo
    echo '```'
    echo "$essh_tunnel"
    echo "$ssh_gcm"
    echo "$ssh_default"
    echo "python3 bench/forward-bench.py --rounds $rounds --bytes $size --file $data NAME COMMAND ..."
    echo '```'
    echo
    echo "## Results"
    echo
    echo "$table"
} > "$out"
cat "$out"
