#!/usr/bin/env bash
# essh exec vs OpenSSH ssh, side by side in one hyperfine run against the same test sshd with the same ed25519 key:
#   1. connect + authenticate + `true`        target: essh ≤ 0.7× ssh's time
#   2. `cat` of a 200 MB file to /dev/null    target: essh ≥ ssh's throughput
# Writes bench/results/exec-$BENCH_DATE.md. Run through `make bench` (release build, servers started).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${ESSH:?run through make bench}"
# shellcheck disable=SC1090
. "$ESSH_TEST_SERVERS"
out=bench/results/exec-$BENCH_DATE.md
work=bench/work/exec
mkdir -p "$work"
key=$ESSH_TEST_KEYS/id_ed25519
dest="$ESSH_TEST_USER@$ESSH_TEST_HOST"
essh="$ESSH exec --known-hosts $ESSH_TEST_KNOWN_HOSTS -i $key -p $ESSH_TEST_PORT $dest"
ssh="ssh -F /dev/null -o BatchMode=yes -o UserKnownHostsFile=$ESSH_TEST_KNOWN_HOSTS -o GlobalKnownHostsFile=/dev/null -i $key -p $ESSH_TEST_PORT $dest"
runs=${BENCH_RUNS:-30}

# Sanity: both produce the same bytes before anything is timed.
a=$($essh "cat $ESSH_TEST_DATA_200M" | sha256sum | cut -d' ' -f1)
b=$($ssh "cat $ESSH_TEST_DATA_200M" | sha256sum | cut -d' ' -f1)
[ "$a" = "$b" ] || { echo "bench-exec: essh and ssh delivered different bytes" >&2; exit 1; }

hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/connect.json" \
    -n "essh exec true" "$essh true" -n "ssh true" "$ssh true" > "$work/connect.txt"
hyperfine --warmup 1 --runs "$(( runs / 3 > 5 ? runs / 3 : 5 ))" --export-json "$work/cat.json" \
    -n "essh exec cat 200MB" "$essh cat $ESSH_TEST_DATA_200M > /dev/null" \
    -n "ssh cat 200MB" "$ssh cat $ESSH_TEST_DATA_200M > /dev/null" > "$work/cat.txt"

python3 - "$work" "$out" "$essh" "$ssh" "$ESSH_TEST_DATA_200M" <<'PY'
import json, sys, subprocess
work, out, essh, ssh, data = sys.argv[1:]
def load(name):
    r = {x["command"]: x for x in json.load(open(f"{work}/{name}.json"))["results"]}
    return r
c = load("connect"); t = load("cat")
e1, s1 = c["essh exec true"], c["ssh true"]
e2, s2 = t["essh exec cat 200MB"], t["ssh cat 200MB"]
mb = 200.0
machine = subprocess.run(["bash", "bench/machine.sh"], capture_output=True, text=True).stdout
ssh_v = subprocess.run(["ssh", "-V"], capture_output=True, text=True).stderr.strip()
r1 = e1["mean"] / s1["mean"]
thr_e, thr_s = mb / e2["mean"], mb / s2["mean"]
r2 = thr_e / thr_s
def row(name, r): return f"| {name} | {r['mean']*1000:.1f} ms ± {r['stddev']*1000:.1f} | {r['min']*1000:.1f} ms | {len(r['times'])} |"
with open(out, "w") as f:
    f.write(f"# essh exec vs OpenSSH ssh\n\n{machine}- OpenSSH client: {ssh_v}\n- server: OpenSSH sshd on 127.0.0.1 (Tests/Harness/test-servers.sh), ed25519 user key for both\n\n")
    f.write("## Commands\n\n```\n")
    f.write(f"hyperfine -N --warmup 3 '{essh} true' '{ssh} true'\n")
    f.write(f"hyperfine --warmup 1 '{essh} cat {data} > /dev/null' '{ssh} cat {data} > /dev/null'\n```\n\n")
    f.write("## Results\n\n| command | mean | min | runs |\n| --- | --- | --- | --- |\n")
    for r, n in [(e1, "essh exec … true"), (s1, "ssh … true"), (e2, "essh exec … cat 200 MB"), (s2, "ssh … cat 200 MB")]:
        f.write(row(n, r) + "\n")
    f.write(f"\n## Ratios\n\n")
    f.write(f"- connect + auth + `true`: essh takes **{r1:.2f}×** ssh's time (target ≤ 0.70×): {'met' if r1 <= 0.7 else 'NOT met'}\n")
    f.write(f"- `cat` 200 MB: essh {thr_e:.0f} MB/s vs ssh {thr_s:.0f} MB/s = **{r2:.2f}×** ssh's throughput (target ≥ 1.00×): {'met' if r2 >= 1.0 else 'NOT met'}\n")
print(open(out).read())
PY
