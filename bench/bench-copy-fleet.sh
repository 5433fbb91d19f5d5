#!/usr/bin/env bash
# bench-copy-fleet (issue 16 §4): push one 50 MB file to 200 servers, `essh cp --all FILE :/in/` against Debian's
# parallel-scp (pssh's pscp) at the same parallelism, side by side in one hyperfine run. The namespace is
# bench-fleet.sh's: inside a private network namespace one OpenSSH sshd listens on 0.0.0.0:22 and the 200 servers
# are the loopback addresses 127.0.1.1 … 127.0.1.200. So that each server gets a file of its own (and every copy can
# be checked), each address is chrooted to a folder of its own (`Match LocalAddress` + `ChrootDirectory`, the SFTP
# server inside sshd) on a tmpfs mounted in a private mount namespace; both tools write /in/app.bin there.
# Target: essh's wall time ≤ 0.5× parallel-scp's.
# Every run's 200 copies are checked (sha256, and nothing else left in the folder: no partial files) by the next
# run's --prepare and after the last run. Writes bench/results/copy-fleet-$BENCH_DATE.md. Needs root (unshare -n -m),
# the test servers' keys (make bench starts them), parallel-ssh's parallel-scp, hyperfine, python3.
# BENCH_COPY_FLEET_TOOLS=openssh measures only parallel-scp; BENCH_COPY_FLEET_SERVERS (200),
# BENCH_COPY_FLEET_SIZE (50000000 bytes), BENCH_COPY_FLEET_PARALLEL (32), BENCH_RUNS (3) make a quicker run.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ESSH_BENCH_IN_NETNS:-}" ]; then
    exec env ESSH_BENCH_IN_NETNS=1 unshare -n -m --propagation private bash "$0" "$@"
fi

ESSH=${ESSH:-$PWD/.build/release/essh}
BENCH_DATE=${BENCH_DATE:-$(date -u +%Y-%m-%d)}
ESSH_TEST_SERVERS=${ESSH_TEST_SERVERS:-$PWD/.test-servers/servers.env}
TOOLS=${BENCH_COPY_FLEET_TOOLS:-all}
SERVERS=${BENCH_COPY_FLEET_SERVERS:-200}
SIZE=${BENCH_COPY_FLEET_SIZE:-50000000}
PARALLEL=${BENCH_COPY_FLEET_PARALLEL:-32}
RUNS=${BENCH_RUNS:-3}
work=$PWD/bench/work/copy-fleet
out=$PWD/bench/results/copy-fleet-$BENCH_DATE.md
M=/run/essh-bench-copy-fleet
rm -rf "$work"
mkdir -p "$work" "$PWD/bench/results" /run/sshd "$M"

case $TOOLS in all | openssh) ;; *) echo "bench-copy-fleet: BENCH_COPY_FLEET_TOOLS is all or openssh" >&2; exit 64 ;; esac
for tool in python3 parallel-scp hyperfine scp /usr/sbin/sshd; do
    command -v "$tool" >/dev/null || { echo "bench-copy-fleet: $tool is missing (make bench-deps)" >&2; exit 1; }
done
if [ "$TOOLS" = all ]; then
    [ -x "$ESSH" ] || { echo "bench-copy-fleet: $ESSH is not built (make release)" >&2; exit 1; }
    "$ESSH" cp --help > /dev/null 2>&1 || { echo "bench-copy-fleet: $ESSH has no cp subcommand" >&2; exit 1; }
fi
[ -f "$ESSH_TEST_SERVERS" ] || { echo "bench-copy-fleet: $ESSH_TEST_SERVERS missing: start the test servers" >&2; exit 1; }
# shellcheck disable=SC1090
. "$ESSH_TEST_SERVERS"
unset SSH_AUTH_SOCK
key=$ESSH_TEST_KEYS/id_ed25519
user=$ESSH_TEST_USER

ip link set lo up
ulimit -n "$(ulimit -Hn)"
# The servers' folders and the source, in memory: every server's copy plus the source, with room to spare. The
# mount lives only in this mount namespace and goes with it.
mount -t tmpfs -o "size=$(( (SERVERS + 2) * SIZE / 1048576 + 64 ))m,mode=755" essh-bench-copy-fleet "$M"
mkdir -p "$M/src"
head -c "$SIZE" /dev/urandom > "$M/src/app.bin"
want=$(sha256sum < "$M/src/app.bin" | cut -c1-64)

# One sshd for the 200 addresses: key login only, no PAM, no DNS, room for every connection at once; each address
# chrooted to its own folder (ChrootDirectory wants root-owned folders up to it; /in is the test user's).
. bench/fleet-hosts.sh
{
    fleet_sshd_config
    cat <<CONF
Subsystem sftp internal-sftp
CONF
    for i in $(seq 1 "$SERVERS"); do
        a=127.0.$(( 1 + (i - 1) / 250 )).$(( (i - 1) % 250 + 1 ))
        printf 'Match LocalAddress %s\n    ChrootDirectory %s/s%03d\n' "$a" "$M" "$i"
    done
} > "$work/sshd.conf"
for i in $(seq 1 "$SERVERS"); do
    d=$(printf '%s/s%03d' "$M" "$i")
    mkdir -p "$d/in"
    chown "$user:$user" "$d/in"
done
fleet_sshd_start
fleet_host_files

# check.sh: after a run, every server's /in holds exactly app.bin with the source's sha256; then it is emptied.
# Before the first run (nothing there) it passes.
cat > "$work/check.sh" <<SH
set -eu
cd $M
present=\$(find s*/in -mindepth 1 | wc -l)
[ "\$present" = 0 ] && exit 0
good=\$(printf '%s\n' s*/in/app.bin | xargs -r -P 2 -n 25 sha256sum 2>/dev/null | grep -c "^$want " || true)
if [ "\$good" != $SERVERS ] || [ "\$present" != $SERVERS ]; then
    echo "BAD (checked \$1): \$good of $SERVERS copies match, \$present entries in the servers' folders" >> $work/checks.log
    echo "check: \$good of $SERVERS copies match the source, \$present entries (see $M)" >&2
    exit 1
fi
echo "ok $SERVERS copies (checked \$1)" >> $work/checks.log
find s*/in -mindepth 1 -delete
SH
: > "$work/checks.log"

pscp_cmd="parallel-scp -h $work/hosts.txt -l $user -p $PARALLEL -t 0 -x -F/dev/null -O BatchMode=yes -O StrictHostKeyChecking=yes -O UserKnownHostsFile=$work/known_hosts -O GlobalKnownHostsFile=/dev/null -O IdentityFile=$key -O IdentitiesOnly=yes $M/src/app.bin /in/app.bin"
# Like for like: essh's key exchange and cipher for ssh (OpenSSH 9.2's defaults are sntrup761x25519 and chacha20).
pscp_same_cmd="${pscp_cmd/ -O IdentitiesOnly=yes/ -O IdentitiesOnly=yes -O KexAlgorithms=curve25519-sha256 -O Ciphers=aes128-gcm@openssh.com}"
args=()
if [ "$TOOLS" = all ]; then
    db=$work/essh.db
    "$ESSH" servers import-ssh-config --db "$db" "$work/ssh_config" > "$work/import.out"
    # essh cp's servers at once: the fleet.parallel setting (cp's --parallel is files at a time on one server).
    "$ESSH" config set --db "$db" fleet.parallel "$PARALLEL" > /dev/null
    essh_cmd="$ESSH cp --db $db --all --known-hosts $work/known_hosts --host-key-policy strict $M/src/app.bin :/in/app.bin"
    args+=(--prepare "bash $work/check.sh before-a-run-of-essh" -n essh "$essh_cmd")
fi
args+=(--prepare "bash $work/check.sh before-a-run-of-parallel-scp" -n parallel-scp "$pscp_cmd")
args+=(--prepare "bash $work/check.sh before-a-run-of-parallel-scp-same" -n parallel-scp-same "$pscp_same_cmd")

load() { cut -d' ' -f1-3 /proc/loadavg; }
load_before=$(load)
hyperfine -N --runs "$RUNS" --warmup 0 --export-json "$work/hyperfine.json" "${args[@]}" | tee "$work/hyperfine.txt"
bash "$work/check.sh" after-the-last-run
load_after=$(load)
checked=$(grep -c '^ok ' "$work/checks.log" || true)

python3 - "$work" "$SIZE" "$SERVERS" > "$work/figures.md" <<'PY'
import json, sys
work, size, servers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
h = {r["command"]: r for r in json.load(open(work + "/hyperfine.json"))["results"]}
names = {"essh": "essh cp --all", "parallel-scp": "parallel-scp",
         "parallel-scp-same": "parallel-scp, curve25519-sha256 + aes128-gcm"}
def cpu(r): return r["user"] + r["system"]
print("| tool | mean wall time | min | max | MB/s (all servers) | client CPU (user+sys) | runs |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for k, r in h.items():
    print("| %s | %.2f s ± %.2f | %.2f s | %.2f s | %.0f | %.2f s | %d |" % (
        names[k], r["mean"], r["stddev"] or 0, r["min"], r["max"], size * servers / r["mean"] / 1e6, cpu(r),
        len(r["times"])))
print()
if "essh" not in h:
    print("essh was not measured in this run (BENCH_COPY_FLEET_TOOLS=openssh).")
    sys.exit()
e = h["essh"]
print("| target | measured | |")
print("| --- | --- | --- |")
for k, label, target in (("parallel-scp", "essh wall time / parallel-scp's", True),
                         ("parallel-scp-same", "like for like: essh wall time / parallel-scp's with essh's algorithms", False)):
    r = e["mean"] / h[k]["mean"]
    print("| %s | %.2f × | %s |" % (label, r, ("met (≤ 0.5×)" if r <= 0.5 else "MISSED (≤ 0.5×)") if target else "reference"))
    c = cpu(e) / cpu(h[k])
    print("| %s, CPU | %.2f × | reference |" % (label.replace(" wall time", ""), c))
PY

shortened=""
if [ "$SERVERS" != 200 ] || [ "$SIZE" != 50000000 ]; then shortened=" (SHORTENED RUN: $SIZE bytes to $SERVERS servers)"; fi
{
    echo "# essh cp --all vs parallel-scp: one $SIZE-byte file to $SERVERS servers, $PARALLEL at once$shortened"
    echo
    # machine.sh's lines; essh --version's second line (its libssh2) joined to the first
    bash bench/machine.sh | awk '/^- /{if (l != "") print l; l = $0; next} {l = l "; " $0} END {print l}'
    echo "- pssh: $(dpkg-query -W -f='${Version}' pssh 2>/dev/null) (Debian), $(python3 --version)"
    echo "- OpenSSH: $(ssh -V 2>&1)"
    echo "- hyperfine: $(hyperfine --version)"
    echo "- load average (1, 5, 15 min): before $load_before, after $load_after"
    echo
    echo "## Setup"
    echo
    echo "bench-fleet.sh's namespace: inside a private network namespace (\`unshare -n -m\`, \`ip link set lo up\`) one"
    echo "OpenSSH sshd listens on 0.0.0.0:22; the $SERVERS servers are the loopback addresses 127.0.1.1 … (saved in"
    echo "essh's database by \`essh servers import-ssh-config\`, listed one per line for parallel-scp). Both tools log in"
    echo "as the test user with the same ed25519 key and check the same known_hosts. Each address is chrooted"
    echo "(\`Match LocalAddress\`, \`ChrootDirectory\`) to its own folder on a tmpfs mounted in the script's own mount"
    echo "namespace, and both tools write \`/in/app.bin\` there through sshd's internal-sftp (parallel-scp runs OpenSSH"
    echo "9.2's scp, which speaks SFTP by default). sshd runs on the same 2 cores, so its work (a process, key exchange"
    echo "and decrypting and writing $SIZE bytes per server) is inside both wall times; client CPU is the client's"
    echo "process tree only (essh alone; parallel-scp's Python plus its scp and ssh children), from getrusage."
    echo
    echo "Every copy was checked: after each run all $SERVERS folders held exactly app.bin with the source's sha256"
    echo "(no partial files left); $checked runs × $SERVERS copies checked."
    echo
    echo "## Commands"
    echo
    echo '```'
    [ "$TOOLS" = all ] && echo "$ESSH config set --db $db fleet.parallel $PARALLEL"
    echo "hyperfine -N --runs $RUNS --warmup 0 \\"
    [ "$TOOLS" = all ] && echo "  '$essh_cmd' \\"
    echo "  '$pscp_cmd' \\"
    echo "  '$pscp_same_cmd'"
    echo '```'
    echo
    echo "## Results"
    echo
    cat "$work/figures.md"
} > "$out"
cat "$out"
