#!/usr/bin/env bash
# bench-fleet: `uname -a` on 200 servers, essh exec --all against Debian's parallel-ssh (pssh) at the same
# parallelism, side by side in one hyperfine run. Inside a private network namespace (nothing leaves the machine):
# one OpenSSH sshd listens on 0.0.0.0:22 there, and the 200 servers are 200 distinct loopback addresses
# 127.0.1.1 … 127.0.1.200 (one sshd with 200 ListenAddress lines is not possible: sshd allows 16). Both tools log
# in as the test user with the harness's ed25519 key and verify host keys against the same known_hosts.
# Targets: essh's wall time ≤ 0.5× pssh's and its CPU time (user+sys of the whole process tree) ≤ 0.5× pssh's.
# Writes bench/results/fleet-$BENCH_DATE.md. Needs root (unshare -n), the test servers' keys (make bench starts
# them), parallel-ssh (pssh), hyperfine, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ESSH_BENCH_IN_NETNS:-}" ]; then
    exec env ESSH_BENCH_IN_NETNS=1 unshare -n bash "$0" "$@"
fi

ESSH=${ESSH:-$PWD/.build/release/essh}
BENCH_DATE=${BENCH_DATE:-$(date -u +%Y-%m-%d)}
ESSH_TEST_SERVERS=${ESSH_TEST_SERVERS:-$PWD/.test-servers/servers.env}
SERVERS=${BENCH_FLEET_SERVERS:-200}
PARALLEL=${BENCH_FLEET_PARALLEL:-64}
RUNS=${BENCH_RUNS:-5}
[ "$RUNS" -ge 3 ] || RUNS=3
work=$PWD/bench/work/fleet
out=$PWD/bench/results/fleet-$BENCH_DATE.md
rm -rf "$work"
mkdir -p "$work" "$PWD/bench/results" /run/sshd
export ESSH

for tool in python3 parallel-ssh hyperfine ssh /usr/sbin/sshd; do
    command -v "$tool" >/dev/null || { echo "bench-fleet: $tool is missing (make bench-deps)" >&2; exit 1; }
done
[ -x "$ESSH" ] || { echo "bench-fleet: $ESSH is not built (make release)" >&2; exit 1; }
[ -f "$ESSH_TEST_SERVERS" ] || { echo "bench-fleet: $ESSH_TEST_SERVERS missing: start the test servers" >&2; exit 1; }
# shellcheck disable=SC1090
. "$ESSH_TEST_SERVERS"
key=$ESSH_TEST_KEYS/id_ed25519
user=$ESSH_TEST_USER

ip link set lo up
ulimit -n "$(ulimit -Hn)"

# One sshd for the 200 addresses: key login only, no PAM, no DNS, room for every connection at once.
. bench/fleet-hosts.sh
fleet_sshd_config > "$work/sshd.conf"
fleet_sshd_start
fleet_host_files
db=$work/essh.db
"$ESSH" servers import-ssh-config --db "$db" "$work/ssh_config" > "$work/import.out"

essh_cmd="$ESSH exec --db $db --all --parallel $PARALLEL --known-hosts $work/known_hosts -- uname -a"
pssh_cmd="parallel-ssh -h $work/hosts.txt -l $user -p $PARALLEL -t 60 -i -x -F/dev/null -O BatchMode=yes -O StrictHostKeyChecking=yes -O UserKnownHostsFile=$work/known_hosts -O GlobalKnownHostsFile=/dev/null -O IdentityFile=$key -O IdentitiesOnly=yes uname -a"
# Like for like: OpenSSH 9.2 picks the post-quantum sntrup761x25519 key exchange by default, libssh2 1.10 cannot and
# uses curve25519-sha256; this row gives ssh the same key exchange, so the crypto does not decide the ratio.
pssh_same_cmd="${pssh_cmd/ -O IdentitiesOnly=yes/ -O IdentitiesOnly=yes -O KexAlgorithms=curve25519-sha256}"

# Both must give every server's answer before anything is timed.
set +e
$essh_cmd > "$work/essh.out" 2> "$work/essh.err"; essh_rc=$?
$pssh_cmd > "$work/pssh.out" 2> "$work/pssh.err"; pssh_rc=$?
$pssh_same_cmd > "$work/pssh-same.out" 2> "$work/pssh-same.err"
set -e
essh_ok=$(grep -c ': Linux ' "$work/essh.out" || true)
pssh_ok=$(grep -c '\[SUCCESS\]' "$work/pssh.out" || true)
echo "essh: $essh_ok of $SERVERS answered (exit $essh_rc); pssh: $pssh_ok of $SERVERS (exit $pssh_rc)" | tee "$work/verify.txt"
pssh_same_ok=$(grep -c '\[SUCCESS\]' "$work/pssh-same.out" || true)
echo "pssh with curve25519-sha256: $pssh_same_ok of $SERVERS" | tee -a "$work/verify.txt"
if [ "$essh_ok" != "$SERVERS" ] || [ "$pssh_ok" != "$SERVERS" ] || [ "$pssh_same_ok" != "$SERVERS" ]; then
    echo "bench-fleet: not every server answered; see $work" >&2
    exit 1
fi

# hyperfine's user and system times are those of the whole process tree it waited for (pssh's ssh children too).
hyperfine -N --runs "$RUNS" --warmup 1 --export-json "$work/hyperfine.json" \
    -n essh "$essh_cmd" -n pssh "$pssh_cmd" -n pssh-curve25519 "$pssh_same_cmd" | tee "$work/hyperfine.txt"

python3 - "$work" > "$work/figures.md" <<'PY'
import json, sys
work = sys.argv[1]
h = {r["command"]: r for r in json.load(open(work + "/hyperfine.json"))["results"]}
e, p, q = h["essh"], h["pssh"], h["pssh-curve25519"]
def cpu(r): return r["user"] + r["system"]
def mark(b): return "met" if b else "MISSED"
print("| tool | mean wall time | min | max | user | sys | CPU (user+sys) | runs |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for name, r in (("essh exec --all", e), ("parallel-ssh", p), ("parallel-ssh, curve25519-sha256", q)):
    print("| %s | %.3f s ± %.3f | %.3f s | %.3f s | %.3f s | %.3f s | %.3f s | %d |" % (
        name, r["mean"], r["stddev"] or 0, r["min"], r["max"], r["user"], r["system"], cpu(r), len(r["times"])))
rw, rc = e["mean"] / p["mean"], cpu(e) / cpu(p)
print()
print("| target | measured | |")
print("| --- | --- | --- |")
print("| essh wall time ≤ 0.5 × pssh's | %.2f × | %s |" % (rw, mark(rw <= 0.5)))
print("| essh CPU time ≤ 0.5 × pssh's (whole process tree) | %.2f × | %s |" % (rc, mark(rc <= 0.5)))
sw, sc = e["mean"] / q["mean"], cpu(e) / cpu(q)
print("| like for like (ssh with curve25519-sha256): wall time | %.2f × | %s |" % (sw, mark(sw <= 0.5)))
print("| like for like (ssh with curve25519-sha256): CPU time | %.2f × | %s |" % (sc, mark(sc <= 0.5)))
PY

{
    echo "# essh exec --all vs parallel-ssh: \`uname -a\` on $SERVERS servers, $PARALLEL at once"
    echo
    bash bench/machine.sh
    echo "- pssh: $(dpkg-query -W -f='${Version}' pssh 2>/dev/null) (Debian), $(python3 --version)"
    echo "- OpenSSH: $(ssh -V 2>&1)"
    echo "- hyperfine: $(hyperfine --version)"
    echo
    echo "## Setup"
    echo
    echo "Inside a private network namespace (\`unshare -n\`, \`ip link set lo up\`). One OpenSSH sshd (key login, no"
    echo "PAM, \`MaxStartups 1000:30:2000\`) listens on 0.0.0.0:22 in the namespace; the $SERVERS servers are the"
    echo "loopback addresses 127.0.1.1 … 127.0.1.$SERVERS, saved in essh's database by \`essh servers import-ssh-config\`"
    echo "and listed one per line for pssh. Both tools log in as the test user with the same ed25519 key and check"
    echo "the same known_hosts (one ed25519 line per address). sshd runs on the same 2 cores, so its work (a fork,"
    echo "key exchange and a shell per connection) is inside both wall times; CPU time is the client's process tree"
    echo "only (essh alone; pssh's Python plus its ssh children), as hyperfine reports it from getrusage."
    echo
    echo "OpenSSH 9.2 negotiates the post-quantum sntrup761x25519-sha512 key exchange by default; libssh2 1.10 cannot,"
    echo "and uses curve25519-sha256. The third row gives ssh that same key exchange (like for like); the targets are"
    echo "judged against pssh as people run it (the second row)."
    echo
    echo "Checked before timing: $(tr '\n' ';' < "$work/verify.txt")."
    echo
    echo "## Commands"
    echo
    echo '```'
    echo "hyperfine -N --runs $RUNS --warmup 1 \\"
    echo "  '$essh_cmd' \\"
    echo "  '$pssh_cmd' \\"
    echo "  '$pssh_same_cmd'"
    echo '```'
    echo
    echo "## Results"
    echo
    cat "$work/figures.md"
} > "$out"
cat "$out"
