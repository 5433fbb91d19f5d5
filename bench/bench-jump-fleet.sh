#!/usr/bin/env bash
# Fleet runs and online checks behind one bastion (issue 15 §4), on the test harness's namespace topology: b1 is the
# bastion (reachable from here), t1 the target (reachable only from b1). Writes bench/results/jump-fleet-<date>.md.
#
#   1. `uname` on 200 targets behind b1, 32 at once: eSSH's FleetRunner (the engine of `essh exec`, through the
#      JumpFleetBenchmark test: the CLI's -J is another branch's) vs parallel-ssh -x '-J b1', 3 runs each, wall time,
#      CPU (eSSH: its process; pssh: its process tree, /usr/bin/time) and b1's logins (its log's Accepted lines).
#   2. An online check of 2,000 servers behind b1 (⅓ t1's sshd, ⅓ t1's closed port, ⅓ t1's silent port) at a 3 s
#      timeout, for several bastion-session counts (BENCH_CHECK_SESSIONS).
#
# The 200 (and 2,000) targets are one address and port each kind, listed many times: each is a connection of its
# own (its own channel, TCP connection from b1, sshd process and login on t1), which is what is measured.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ENV=${ESSH_TEST_SERVERS:-$ROOT/.test-servers/servers.env}
[ -f "$ENV" ] || { echo "bench-jump-fleet: start the test servers first (Tests/Harness/test-servers.sh start)" >&2; exit 1; }
set -a; . "$ENV"; set +a
W=$ROOT/bench/work/jump-fleet
mkdir -p "$W"
DATE=${BENCH_DATE:-$(date -u +%Y-%m-%d)}
OUT=$ROOT/bench/results/jump-fleet-$DATE.md
TARGETS=${BENCH_TARGETS:-200}
PARALLEL=${BENCH_PARALLEL:-32}
RUNS=${BENCH_RUNS:-3}
SESSIONS=${BENCH_CHECK_SESSIONS:-16,64,128}
export PKG_CONFIG_PATH=$(Sources/CLibSSH2/libssh2-from-debian.sh pkg-config-path)

logins() { grep -c 'Accepted publickey for' "$ESSH_TEST_B1_LOG" || true; }

cat > "$W/ssh_config" <<EOF
Host *
  User $ESSH_TEST_USER
  IdentityFile $ESSH_TEST_KEYS/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $ESSH_TEST_JUMP_KNOWN_HOSTS
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
EOF
for _ in $(seq 1 "$TARGETS"); do echo "$ESSH_TEST_T1_HOST:$ESSH_TEST_T1_PORT"; done > "$W/hosts.txt"

swift build --build-tests >/dev/null
PSSH=(parallel-ssh -h "$W/hosts.txt" -p "$PARALLEL" -t 60 -i -x "-F $W/ssh_config -J $ESSH_TEST_B1_HOST" uname)

echo "== eSSH fleet and check (JumpFleetBenchmark)"
ESSH_BENCH_JUMP_FLEET=1 BENCH_TARGETS=$TARGETS BENCH_PARALLEL=$PARALLEL BENCH_RUNS=$RUNS BENCH_CHECK_SESSIONS=$SESSIONS \
    LANG=C.UTF-8 swift test --skip-build --filter JumpFleetBenchmark 2>&1 | tee "$W/essh.log" | grep -E '^BENCH|✘'

echo "== parallel-ssh -x '-J b1'"
: > "$W/pssh.txt"
for run in $(seq 0 $((RUNS - 1))); do
    before=$(logins)
    /usr/bin/time -f '%e %U %S' -o "$W/time.txt" "${PSSH[@]}" > "$W/pssh-out.txt" 2>&1 || true
    ok=$(grep -c '\[SUCCESS\]' "$W/pssh-out.txt" || true)
    sleep 1
    after=$(logins)
    read -r wall user sys < "$W/time.txt"
    line="BENCH pssh run=$run targets=$TARGETS parallel=$PARALLEL ok=$ok wall=$wall cpu=$(echo "$user + $sys" | bc) logins=$((after - before))"
    echo "$line" | tee -a "$W/pssh.txt"
done

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
e_wall=$(grep '^BENCH fleet' "$W/essh.log" | field wall | median)
e_cpu=$(grep '^BENCH fleet' "$W/essh.log" | field cpu | median)
e_logins=$(grep '^BENCH fleet' "$W/essh.log" | field logins | median)
e_ok=$(grep '^BENCH fleet' "$W/essh.log" | field ok | median)
p_wall=$(field wall < "$W/pssh.txt" | median)
p_cpu=$(field cpu < "$W/pssh.txt" | median)
p_logins=$(field logins < "$W/pssh.txt" | median)
p_ok=$(field ok < "$W/pssh.txt" | median)

{
    echo "# Fleet runs and online checks behind one bastion (issue 15 §4)"
    echo
    ESSH="$ROOT/.build/debug/essh" bash bench/machine.sh | grep -v "^libssh2"
    echo "- eSSH build: debug (swift build --build-tests); libssh2: $(Sources/CLibSSH2/libssh2-from-debian.sh origin)"
    echo "- pssh: $(dpkg-query -W -f='${Version}' pssh 2>/dev/null) (Debian); $(ssh -V 2>&1)"
    echo
    echo "## Commands"
    echo
    echo '```'
    echo "ESSH_BENCH_JUMP_FLEET=1 BENCH_TARGETS=$TARGETS BENCH_PARALLEL=$PARALLEL BENCH_RUNS=$RUNS BENCH_CHECK_SESSIONS=$SESSIONS \\"
    echo "    swift test --skip-build --filter JumpFleetBenchmark"
    echo "/usr/bin/time -f '%e %U %S' ${PSSH[*]}"
    echo '```'
    echo
    echo "## uname on $TARGETS targets behind one bastion, $PARALLEL at once (median of $RUNS runs)"
    echo
    echo "| tool | answered | wall time | CPU (user+sys) | bastion logins |"
    echo "| --- | --- | --- | --- | --- |"
    echo "| eSSH (FleetRunner, one bastion session) | $e_ok | ${e_wall} s | ${e_cpu} s | $e_logins |"
    echo "| parallel-ssh -x '-J b1' | $p_ok | ${p_wall} s | ${p_cpu} s | $p_logins |"
    echo "| eSSH / pssh | | $(echo "scale=2; $e_wall / $p_wall" | bc) × | $(echo "scale=2; $e_cpu / $p_cpu" | bc) × | |"
    echo
    echo "Every run:"
    echo
    echo '```'
    grep '^BENCH fleet' "$W/essh.log"
    cat "$W/pssh.txt"
    echo '```'
    echo
    echo "## Online check of 2,000 servers behind one bastion (⅓ up, ⅓ refused, ⅓ silent), 3 s timeout"
    echo
    echo '```'
    grep '^BENCH check' "$W/essh.log"
    echo '```'
} > "$OUT"
echo "wrote $OUT"
