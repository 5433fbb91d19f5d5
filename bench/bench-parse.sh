#!/usr/bin/env bash
# Parsing speed: `essh parse interfaces --json` against jc (PyPI) on the same generated Linux ifconfig input,
# at 1,000,000 lines (about 100,000 interfaces) and at half and a quarter of that to show linearity.
# Writes bench/results/parse-$BENCH_DATE.md. Run through `make bench` (or BENCH_ONLY=parse bench/run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
ESSH=${ESSH:-$PWD/.build/release/essh}
BENCH_DATE=${BENCH_DATE:-$(date -u +%Y-%m-%d)}
work=bench/work/parse
mkdir -p "$work" bench/results
command -v jc >/dev/null || python3 -m pip install --quiet jc
command -v jc >/dev/null || { echo "bench-parse: jc is not installed and pip could not install it" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "bench-parse: hyperfine is missing (make bench-deps)" >&2; exit 1; }

# One interface is 10 lines in the net-tools 2.10 layout (header, inet, inet6, ether, RX/TX lines, blank).
generate() {  # $1 = interfaces, $2 = file
    python3 - "$1" "$2" <<'PY'
import sys
n, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as f:
    for i in range(n):
        a, b = (i >> 8) & 255, i & 255
        f.write(f"eth{i}: flags=4163<UP,BROADCAST,RUNNING,MULTICAST>  mtu 1500\n"
                f"        inet 10.{a}.{b}.1  netmask 255.255.255.0  broadcast 10.{a}.{b}.255\n"
                f"        inet6 fe80::{i:x}:ff:fe00:1  prefixlen 64  scopeid 0x20<link>\n"
                f"        ether 02:00:00:{(i >> 16) & 255:02x}:{a:02x}:{b:02x}  txqueuelen 1000  (Ethernet)\n"
                f"        RX packets {i * 3}  bytes {i * 1500} (1.0 MB)\n"
                f"        RX errors 0  dropped 0  overruns 0  frame 0\n"
                f"        TX packets {i * 2}  bytes {i * 900} (0.9 MB)\n"
                f"        TX errors 0  dropped 0 overruns 0  carrier 0  collisions 0\n"
                f"        device interrupt 16  memory 0xfe800000-fe820000\n"
                f"\n")
PY
}
sizes=(25000 50000 100000)
for n in "${sizes[@]}"; do
    [ -s "$work/ifconfig-$n.txt" ] || generate "$n" "$work/ifconfig-$n.txt"
done

# Both tools must see the same interfaces before their speed means anything.
small=$work/ifconfig-25000.txt
ours=$("$ESSH" parse interfaces --json "$small" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["interfaces"]))')
theirs=$(jc --ifconfig < "$small" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
[ "$ours" = 25000 ] && [ "$theirs" = 25000 ] || { echo "bench-parse: counts differ (essh $ours, jc $theirs)" >&2; exit 1; }

out=bench/results/parse-$BENCH_DATE.md
json=$work/hyperfine.json
cmds=()
for n in "${sizes[@]}"; do
    cmds+=("$ESSH parse interfaces --json $work/ifconfig-$n.txt > /dev/null")
    cmds+=("jc --ifconfig < $work/ifconfig-$n.txt > /dev/null")
done
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$json" "${cmds[@]}"

{
    echo "# Parsing benchmark: essh parse vs jc ($BENCH_DATE)"
    echo
    bench/machine.sh
    echo "- jc: $(jc --version 2>&1 | head -1)"
    echo "- python: $(python3 --version 2>&1)"
    echo "- hyperfine: $(hyperfine --version)"
    echo
    echo "Input: generated Linux net-tools 2.10 \`ifconfig\` output, 10 lines per interface."
    echo
    echo "Commands (hyperfine --warmup 1 --runs ${RUNS:-5}):"
    echo
    for c in "${cmds[@]}"; do echo "    $c"; done
    echo
    python3 - "$json" "$work" "${sizes[@]}" <<'PY'
import json, os, sys
data = json.load(open(sys.argv[1]))["results"]
work, sizes = sys.argv[2], [int(s) for s in sys.argv[3:]]
print("| interfaces | lines | MB | essh mean (s) | jc mean (s) | essh lines/s | jc lines/s | essh MB/s | jc MB/s | ratio |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for k, n in enumerate(sizes):
    path = f"{work}/ifconfig-{n}.txt"
    lines = sum(1 for _ in open(path, "rb"))
    mb = os.path.getsize(path) / 1e6
    e, j = data[2 * k]["mean"], data[2 * k + 1]["mean"]
    print(f"| {n} | {lines} | {mb:.1f} | {e:.3f} ± {data[2*k]['stddev']:.3f} | {j:.2f} ± {data[2*k+1]['stddev']:.2f} "
          f"| {lines/e:,.0f} | {lines/j:,.0f} | {mb/e:.1f} | {mb/j:.2f} | {j/e:.1f}x |")
e0, e2 = data[0]["mean"], data[4]["mean"]
j0, j2 = data[1]["mean"], data[5]["mean"]
print()
print(f"Linearity: 4x the input took {e2/e0:.2f}x the time for essh, {j2/j0:.2f}x for jc.")
print(f"Target: at least 20x jc's throughput on the 1,000,000-line input; measured {j2/e2:.1f}x.")
PY
} > "$out"
echo "bench-parse: wrote $out"
cat "$out"
