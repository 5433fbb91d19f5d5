#!/usr/bin/env bash
# Fleet runs and online checks behind one bastion (issue 15 §4), with the release `essh` on the test harness's
# namespace topology: b1 is the bastion (reachable from here), t1 the target (reachable only from b1).
# Writes bench/results/jump-fleet-<date>.md.
#
#   1. `uname` on 200 targets behind b1, 32 at once: `essh exec -J b1 -h HOSTS --parallel 32 -- uname` vs
#      `parallel-ssh -p 32 -x '-J b1' uname`, interleaved, 3 runs each: wall time and CPU (each tool's process tree,
#      /usr/bin/time) and b1's logins (its log's Accepted lines).
#   2. `essh check --all` of 2,000 saved servers behind b1 (⅓ up, ⅓ refused: t1's closed port, ⅓ silent: t1's port
#      that drops SYNs) at a 3 s timeout, 3 runs: wall, CPU, statuses, b1's logins.
#
# The targets are one address and port per kind under many names (Host t001 … t200 in the ssh_config both tools
# read; saved servers s0000 … s1999 for the check): each is a connection of its own (its own channel, TCP connection
# from b1, and on t1 its own sshd process for the fleet run). For the check, the "up" third is
# a small asyncio server in t1's namespace that sends an SSH banner: 667 checks at once of one real sshd on these 2
# shared cores would measure that sshd's process start-up (it cannot greet hundreds within 3 s), not the check.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ESSH=${ESSH:-$ROOT/.build/release/essh}
ENV=${ESSH_TEST_SERVERS:-$ROOT/.test-servers/servers.env}
[ -f "$ENV" ] || { echo "bench-jump-fleet: start the test servers first (Tests/Harness/test-servers.sh start)" >&2; exit 1; }
[ -x "$ESSH" ] || { echo "bench-jump-fleet: no $ESSH (make release)" >&2; exit 1; }
command -v parallel-ssh >/dev/null || { echo "bench-jump-fleet: parallel-ssh is missing (apt-get install pssh)" >&2; exit 1; }
set -a; . "$ENV"; set +a
W=$ROOT/bench/work/jump-fleet
rm -rf "$W"; mkdir -p "$W/home/.ssh"; chmod 700 "$W/home" "$W/home/.ssh"
DATE=${BENCH_DATE:-$(date -u +%Y-%m-%d)}
OUT=$ROOT/bench/results/jump-fleet-$DATE.md
TARGETS=${BENCH_TARGETS:-200}
PARALLEL=${BENCH_PARALLEL:-32}
RUNS=${BENCH_RUNS:-3}
CHECKS=${BENCH_CHECK_TARGETS:-2000}
TIMEOUT=${BENCH_CHECK_TIMEOUT:-3}

logins() { grep -c 'Accepted publickey for' "$ESSH_TEST_B1_LOG" || true; }
# Logins settle after the tools end (sshd logs a login as it happens; a second is plenty).
counted() { sleep 1; echo $(( $(logins) - $1 )); }

# One ssh_config for both tools: the user, the key, the known hosts of the jump topology, no questions.
cat > "$W/home/.ssh/config" <<EOF
Host *
  User $ESSH_TEST_USER
  IdentityFile $ESSH_TEST_KEYS/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $ESSH_TEST_JUMP_KNOWN_HOSTS
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
EOF
# 200 names for t1 (eSSH runs each distinct server once: a hosts file listing one address 200 times is one server).
for i in $(seq -w 1 "$TARGETS"); do
    printf 'Host t%s\n  HostName %s\n  Port %s\n' "$i" "$ESSH_TEST_T1_HOST" "$ESSH_TEST_T1_PORT"
done | cat - "$W/home/.ssh/config" > "$W/config.new" && mv "$W/config.new" "$W/home/.ssh/config"
chmod 600 "$W/home/.ssh/config"
cp "$ESSH_TEST_JUMP_KNOWN_HOSTS" "$W/home/.ssh/known_hosts"
for i in $(seq -w 1 "$TARGETS"); do echo "t$i"; done > "$W/hosts.txt"

ESSH_FLEET=("$ESSH" exec -J "$ESSH_TEST_B1_HOST" -h "$W/hosts.txt" --parallel "$PARALLEL"
            --known-hosts "$ESSH_TEST_JUMP_KNOWN_HOSTS" --host-key-policy strict -- uname)
PSSH=(parallel-ssh -h "$W/hosts.txt" -p "$PARALLEL" -t 60 -i -x "-F $W/home/.ssh/config -J $ESSH_TEST_B1_HOST" uname)

timed() { # timed NAME RUN COMMAND...: one line "BENCH NAME run=R ok=N wall=S cpu=S logins=N"
    local name=$1 run=$2; shift 2
    local before; before=$(logins)
    HOME=$W/home /usr/bin/time -f '%e %U %S' -o "$W/time.txt" "$@" > "$W/$name-out.txt" 2> "$W/$name-err.txt" || true
    local n; n=$(counted "$before")
    local ok
    if [ "$name" = pssh ]; then ok=$(grep -c '\[SUCCESS\]' "$W/$name-out.txt" || true)
    else ok=$(grep -c ': Linux$' "$W/$name-out.txt" || true); fi
    read -r wall user sys < <(tail -1 "$W/time.txt")
    echo "BENCH $name run=$run targets=$TARGETS parallel=$PARALLEL ok=$ok wall=$wall cpu=$(echo "$user + $sys" | bc) logins=$n"
}

echo "== uname on $TARGETS targets behind b1: essh exec -J vs parallel-ssh -x '-J b1' (interleaved)"
: > "$W/fleet.txt"
for run in $(seq 0 $((RUNS - 1))); do
    timed essh "$run" "${ESSH_FLEET[@]}" | tee -a "$W/fleet.txt"
    timed pssh "$run" "${PSSH[@]}" | tee -a "$W/fleet.txt"
done

echo "== essh check of $CHECKS saved servers behind b1"
# The "up" third: a banner server in t1's namespace (asyncio; each connection gets a banner and is held open until
# the client closes it).
cat > "$W/banner.py" <<'EOF'
import asyncio, sys
async def greet(reader, writer):
    writer.write(b"SSH-2.0-OpenSSH_9.2p1 bench\r\n")
    await writer.drain()
    try:
        await reader.read()
    finally:
        writer.close()
async def main():
    server = await asyncio.start_server(greet, sys.argv[1], 0, backlog=4096)
    open(sys.argv[2], "w").write(str(server.sockets[0].getsockname()[1]))
    async with server:
        await server.serve_forever()
asyncio.run(main())
EOF
ip netns exec "$ESSH_TEST_T1_NETNS" python3 "$W/banner.py" "$ESSH_TEST_T1_HOST" "$W/banner.port" &
BANNER=$!
trap 'kill $BANNER 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do [ -s "$W/banner.port" ] && break; sleep 0.05; done
UP_PORT=$(cat "$W/banner.port")
# The inventory: b1 (its key from the ssh_config above) and 2,000 servers behind it, interleaved as a list would be.
python3 - "$W/servers.json" "$CHECKS" "$ESSH_TEST_B1_HOST" "$ESSH_TEST_B1_PORT" "$ESSH_TEST_T1_HOST" "$UP_PORT" \
    "$ESSH_TEST_T1_CLOSED_PORT" "$ESSH_TEST_T1_SILENT_PORT" "$ESSH_TEST_USER" "$ESSH_TEST_KEYS/id_ed25519" <<'EOF'
import json, sys
out, count, b1, b1port, t1, up, closed, silent, user, key = sys.argv[1:]
ports = [int(up), int(closed), int(silent)]
servers = [{"name": "b1", "host": b1, "port": int(b1port), "user": user, "auth": "key", "key": key}]
servers += [{"name": "s%04d" % i, "host": t1, "port": ports[i % 3], "jump": "b1"} for i in range(int(count))]
json.dump({"servers": servers}, open(out, "w"))
EOF
export ESSH_DB=$W/essh.db
HOME=$W/home "$ESSH" servers import "$W/servers.json" > /dev/null
CHECK=("$ESSH" check --json --timeout "$TIMEOUT" 's*')
: > "$W/check.txt"
for run in $(seq 0 $((RUNS - 1))); do
    before=$(logins)
    HOME=$W/home /usr/bin/time -f '%e %U %S' -o "$W/time.txt" "${CHECK[@]}" > "$W/check.json" 2> "$W/check-err.txt" || true
    n=$(counted "$before")
    read -r wall user sys < <(tail -1 "$W/time.txt")
    counts=$(python3 -c '
import collections, json, sys
r = json.load(open(sys.argv[1]))["results"]
c = collections.Counter(x["status"] for x in r)
via = collections.Counter(x["via"] for x in r)
print("online=%d refused=%d timed_out=%d other=%d via=%s" % (c["online"], c["refused"], c["timed-out"],
      len(r) - c["online"] - c["refused"] - c["timed-out"], ",".join(sorted(str(v) for v in via))))' "$W/check.json")
    echo "BENCH check run=$run targets=$CHECKS timeout=$TIMEOUT $counts wall=$wall cpu=$(echo "$user + $sys" | bc) logins=$n ratio=$(echo "scale=2; $wall / $TIMEOUT" | bc)" | tee -a "$W/check.txt"
done
unset ESSH_DB

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
of() { grep "^BENCH $1 " "$W/fleet.txt" | field "$2" | median; }
e_wall=$(of essh wall); e_cpu=$(of essh cpu); e_logins=$(of essh logins); e_ok=$(of essh ok)
p_wall=$(of pssh wall); p_cpu=$(of pssh cpu); p_logins=$(of pssh logins); p_ok=$(of pssh ok)
c_ratio=$(field ratio < "$W/check.txt" | median)
c_wall=$(field wall < "$W/check.txt" | median)
c_logins=$(field logins < "$W/check.txt" | median)

{
    echo "# Fleet runs and online checks behind one bastion (issue 15 §4), release essh"
    echo
    ESSH="$ESSH" bash bench/machine.sh | grep -v "^libssh2"
    echo "- eSSH build: release ($ESSH); libssh2: $(Sources/CLibSSH2/libssh2-from-debian.sh origin)"
    echo "- pssh: $(dpkg-query -W -f='${Version}' pssh 2>/dev/null) (Debian); $(ssh -V 2>&1)"
    echo "- servers: the harness's namespaces (Tests/Harness/test-servers.sh): b1's sshd is the bastion, t1's sshd the"
    echo "  fleet's targets; for the check, t1's closed and silent ports and a banner server in t1's namespace"
    echo
    echo "## Commands (HOME=$W/home, whose .ssh/config gives both tools the user, key and known hosts)"
    echo
    echo '```'
    echo "${ESSH_FLEET[*]}"
    echo "/usr/bin/time -f '%e %U %S' ${PSSH[*]}"
    echo "ESSH_DB=$W/essh.db ${CHECK[*]}   # $CHECKS servers imported from $W/servers.json"
    echo '```'
    echo
    echo "## uname on $TARGETS targets behind one bastion, $PARALLEL at once (median of $RUNS interleaved runs)"
    echo
    echo "| tool | answered | wall time | CPU (user+sys) | bastion logins |"
    echo "| --- | --- | --- | --- | --- |"
    echo "| essh exec -J b1 | $e_ok | ${e_wall} s | ${e_cpu} s | $e_logins |"
    echo "| parallel-ssh -x '-J b1' | $p_ok | ${p_wall} s | ${p_cpu} s | $p_logins |"
    echo "| essh / pssh | | $(echo "scale=2; $e_wall / $p_wall" | bc) × | $(echo "scale=2; $e_cpu / $p_cpu" | bc) × | |"
    echo
    echo '```'
    cat "$W/fleet.txt"
    echo '```'
    echo
    echo "## essh check of $CHECKS servers behind one bastion (⅓ up, ⅓ refused, ⅓ silent), ${TIMEOUT} s timeout"
    echo
    echo "Median of $RUNS runs: ${c_wall} s, **${c_ratio} × the timeout** (issue: ≤ 1.5 ×), $c_logins bastion logins."
    echo
    echo '```'
    cat "$W/check.txt"
    echo '```'
} > "$OUT"
echo "wrote $OUT"
