#!/usr/bin/env bash
# bench-check: `essh check` over 10,000 saved servers against `nmap -sT -Pn` over the same targets, inside a
# private network namespace (nothing leaves the machine). A third of the servers send an SSH banner, a third are
# closed ports, a third never answer (backlog-full listeners drop the SYNs). Timeout 1 s.
# Writes bench/results/check-$BENCH_DATE.md. Needs root (unshare -n), python3, nmap, hyperfine, /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${ESSH_BENCH_IN_NETNS:-}" ]; then
    exec env ESSH_BENCH_IN_NETNS=1 unshare -n bash "$0" "$@"
fi

ESSH=${ESSH:-$PWD/.build/release/essh}
BENCH_DATE=${BENCH_DATE:-$(date -u +%Y-%m-%d)}
PORT=2222
THIRD=3334            # listeners per kind; servers: 3334 online, 3333 closed, 3333 silent = 10,000
TIMEOUT=1
RUNS=${BENCH_RUNS:-5}
# nmap's fastest sensible timing for one port on 10,000 hosts waiting as long as essh does: the aggressive template,
# no retries (essh makes one attempt too), every host in one group, all probes in parallel, and a fixed 1 s answer
# timeout. Without the fixed timeout nmap derives one from the loopback round trip (tens of microseconds, so its
# floor of about 50 ms) and calls a port filtered long before 1 s: that run is measured too, as "nmap-adaptive".
NMAP_OPTS="-sT -Pn -n -p $PORT -T5 --max-retries 0 --min-hostgroup 10000 --min-parallelism 10000"
NMAP_OPTS="$NMAP_OPTS --min-rtt-timeout 1000ms --initial-rtt-timeout 1000ms --max-rtt-timeout 1000ms"
NMAP_ADAPTIVE_OPTS="-sT -Pn -n -p $PORT -T5 --max-retries 0 --min-hostgroup 10000 --max-rtt-timeout 1000ms"
work=$PWD/bench/work/check
out=$PWD/bench/results/check-$BENCH_DATE.md
rm -rf "$work"
mkdir -p "$work" "$PWD/bench/results"
export ESSH

ip link set lo up
ulimit -n "$(ulimit -Hn)"

for tool in python3 nmap hyperfine /usr/bin/time; do
    command -v "$tool" >/dev/null || { echo "bench-check: $tool is missing (make bench-deps)" >&2; exit 1; }
done
[ -x "$ESSH" ] || { echo "bench-check: $ESSH is not built (make release)" >&2; exit 1; }

python3 bench/check-listeners.py "$PORT" "$THIRD" > "$work/listeners.out" &
listeners=$!
trap 'kill $listeners 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do grep -q ready "$work/listeners.out" 2>/dev/null && break; sleep 0.1; done
grep -q ready "$work/listeners.out" || { echo "bench-check: listeners did not start" >&2; exit 1; }

addr() { echo "127.$1.$(( $2 / 250 )).$(( $2 % 250 + 1 ))"; }
python3 - "$work" "$PORT" "$THIRD" <<'PY'
import sys
work, port, third = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def addr(p, i): return "127.%d.%d.%d" % (p, i // 250, i % 250 + 1)
kinds = [(1, "on", third), (2, "closed", third - 1), (3, "silent", third - 1)]
with open(work + "/ssh_config", "w") as cfg, open(work + "/targets.txt", "w") as targets:
    for prefix, kind, count in kinds:
        for i in range(count):
            cfg.write("Host %s-%05d\n    HostName %s\n    Port %d\n    User bench\n\n" % (kind, i, addr(prefix, i), port))
            targets.write(addr(prefix, i) + "\n")
PY
db=$work/essh.db
import_cmd="$ESSH servers import-ssh-config --db $db $work/ssh_config"
check_cmd="$ESSH check --db $db --json --timeout $TIMEOUT"
nmap_cmd="nmap $NMAP_OPTS -iL $work/targets.txt -oG $work/nmap.gnmap"
nmap_adaptive_cmd="nmap $NMAP_ADAPTIVE_OPTS -iL $work/targets.txt -oG $work/nmap-adaptive.gnmap"

/usr/bin/time -f '%e s %M KB' -o "$work/import.time" $import_cmd > "$work/import.out"
set +e
/usr/bin/time -v -o "$work/essh.time" $check_cmd > "$work/essh.json"
essh_rc=$?
/usr/bin/time -v -o "$work/nmap.time" $nmap_cmd > "$work/nmap.out" 2>&1
/usr/bin/time -v -o "$work/nmap-adaptive.time" $nmap_adaptive_cmd > "$work/nmap-adaptive.out" 2>&1
set -e

# Every status must be right: on-* online, closed-* refused, silent-* timed-out; nmap open/closed/filtered likewise.
python3 - "$work" > "$work/verify.txt" <<'PY'
import json, re, sys
work = sys.argv[1]
want = {"on": "online", "closed": "refused", "silent": "timed-out"}
results = json.load(open(work + "/essh.json"))["results"]
wrong = [r for r in results if r["status"] != want[r["name"].split("-")[0]]]
counts = {}
for r in results: counts[r["status"]] = counts.get(r["status"], 0) + 1
print("essh: %d results, %s, %d wrong" % (len(results), counts, len(wrong)))
for r in wrong[:10]: print("  wrong:", r)
nwant = {"1": "open", "2": "closed", "3": "filtered"}
for name in ("nmap", "nmap-adaptive"):
    nwrong, ncount, seen = 0, {}, 0
    for line in open(work + "/" + name + ".gnmap"):
        m = re.match(r"Host: 127\.(\d)\.\S+ .*Ports: \d+/(\w+)/", line)
        if not m: continue
        seen += 1
        ncount[m.group(2)] = ncount.get(m.group(2), 0) + 1
        if m.group(2) != nwant[m.group(1)]: nwrong += 1
    print("%s: %d hosts, %s, %d wrong" % (name, seen, ncount, nwrong))
print("VERDICT", "ok" if len(results) == 10000 and not wrong else "WRONG")
PY
cat "$work/verify.txt"

hyperfine --runs "$RUNS" --warmup 1 -i --export-json "$work/hyperfine.json" \
    -n essh "$check_cmd > /dev/null" -n nmap "$nmap_cmd > /dev/null" \
    -n nmap-adaptive "$nmap_adaptive_cmd > /dev/null" | tee "$work/hyperfine.txt"

python3 - "$work" "$TIMEOUT" "$essh_rc" > "$work/figures.md" <<'PY'
import json, re, sys
work, timeout, essh_rc = sys.argv[1], float(sys.argv[2]), sys.argv[3]
h = {r["command"]: r for r in json.load(open(work + "/hyperfine.json"))["results"]}
def rss(path):
    return int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", open(path).read()).group(1)) / 1024
e, n, a = h["essh"], h["nmap"], h["nmap-adaptive"]
essh_rss, nmap_rss, adaptive_rss = rss(work + "/essh.time"), rss(work + "/nmap.time"), rss(work + "/nmap-adaptive.time")
m = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\d+):([\d.]+)", open(work + "/essh.time").read())
cold = int(m.group(1)) * 60 + float(m.group(2))
ok = "VERDICT ok" in open(work + "/verify.txt").read()
ratio_t, ratio_n, ratio_a = e["mean"] / timeout, e["mean"] / n["mean"], e["mean"] / a["mean"]
def mark(b): return "met" if b else "MISSED"
print("| tool | mean wall time | min | max | runs | peak RSS |")
print("| --- | --- | --- | --- | --- | --- |")
for name, r, mem in (("essh check", e, essh_rss), ("nmap -sT, 1 s answer timeout", n, nmap_rss),
                     ("nmap -sT, adaptive timeouts", a, adaptive_rss)):
    print("| %s | %.3f s ± %.3f | %.3f s | %.3f s | %d | %.1f MB |" % (name, r["mean"], r["stddev"] or 0, r["min"], r["max"], len(r["times"]), mem))
print()
print("essh's first run on the freshly imported database (no earlier results, so it cannot start the servers that")
print("timed out before first; /usr/bin/time): %.2f s wall, %.1f MB peak RSS." % (cold, essh_rss))
print()
print("| target | measured | |")
print("| --- | --- | --- |")
print("| essh wall time ≤ 1.5 × timeout (%.1f s) | %.2f × (first run: %.2f ×) | %s |" % (1.5 * timeout, ratio_t, cold / timeout, mark(ratio_t <= 1.5) + ("" if cold <= 1.5 * timeout else "; first run MISSED")))
print("| essh wall time ≤ 0.5 × nmap's (same 1 s timeout) | %.3f × | %s |" % (ratio_n, mark(ratio_n <= 0.5)))
print("| essh wall time vs nmap with adaptive timeouts (not the same check) | %.3f × | %s |" % (ratio_a, "met" if ratio_a <= 0.5 else "not met"))
print("| essh peak RSS ≤ 64 MB | %.1f MB | %s |" % (essh_rss, mark(essh_rss <= 64)))
print("| every status correct | %s | %s |" % ("10,000 of 10,000" if ok else "no", mark(ok)))
print()
print("essh exit status in the verified run: %s (1 expected: not every server is online)" % essh_rc)
PY

{
    echo "# essh check vs nmap -sT: 10,000 servers, timeout ${TIMEOUT} s"
    echo
    bash bench/machine.sh
    echo "- nmap: $(nmap --version | head -1)"
    echo "- hyperfine: $(hyperfine --version)"
    echo
    echo "## Setup"
    echo
    echo "Inside a private network namespace (\`unshare -n\`, \`ip link set lo up\`, open-file limit raised to"
    echo "$(ulimit -n)). All servers on port $PORT at distinct loopback addresses; \`bench/check-listeners.py\`"
    echo "(one Python epoll loop) serves them:"
    echo
    echo "- 3,334 at 127.1.x.y accept and send \`SSH-2.0-OpenSSH_9.2p1 essh-bench\` (expected: online / open)"
    echo "- 3,333 at 127.2.x.y have nothing listening (expected: refused / closed)"
    echo "- 3,333 at 127.3.x.y listen with backlog 0, never accept, queue filled first, so SYNs are dropped"
    echo "  (expected: timeout / filtered)"
    echo
    echo "The servers were saved with a bulk import of a generated ssh_config ($(cat "$work/import.time"):"
    echo "\`$(cat "$work/import.out")\`)."
    echo
    echo "The hyperfine runs check the same database again and again, as a user re-checking their servers does: from"
    echo "the second run on, essh starts the servers that timed out or stayed silent last time first, so their wait"
    echo "overlaps the connects to the others. The first run, without earlier results, is reported on its own."
    echo
    echo "## Commands"
    echo
    echo '```'
    echo "$import_cmd"
    echo "hyperfine --runs $RUNS --warmup 1 -i -n essh '$check_cmd > /dev/null' -n nmap '$nmap_cmd > /dev/null' \\"
    echo "    -n nmap-adaptive '$nmap_adaptive_cmd > /dev/null'"
    echo "/usr/bin/time -v $check_cmd > essh.json      # peak RSS and the statuses verified"
    echo "/usr/bin/time -v $nmap_cmd    # peak RSS and the states verified"
    echo "/usr/bin/time -v $nmap_adaptive_cmd"
    echo '```'
    echo
    echo "## Figures"
    echo
    cat "$work/figures.md"
    echo
    echo "## Verification"
    echo
    echo '```'
    cat "$work/verify.txt"
    echo '```'
    echo
    echo "## hyperfine output"
    echo
    echo '```'
    cat "$work/hyperfine.txt"
    echo '```'
} > "$out"
echo "bench-check: wrote $out"
grep -q "VERDICT ok" "$work/verify.txt"
