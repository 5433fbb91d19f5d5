#!/usr/bin/env bash
# essh exec vs OpenSSH ssh (issue 12), side by side against the same test sshd with the same user keys:
#   1. connect + authenticate + `true`, with the ed25519 key and with the RSA key   target: essh ≤ 0.35× ssh's time
#   2. `cat` of 200 MB and of 1 GB to /dev/null: essh (its default cipher, and aes128-gcm when essh has --ciphers),
#      ssh (its default cipher) and `ssh -c aes128-gcm@openssh.com`
#      targets: essh ≥ 1.2× ssh's default throughput, ≥ 1.0× ssh's with the same cipher
#   CPU seconds per GB (user + sys of the client process) for every client, the negotiated
#   algorithms (ssh -v; essh exec -v when it reports them; for every client the server's view from a one-connection
#   `sshd -dd`) and the load average before and after each block. Ratios use the means.
# Timing: bench/interleaved.py, round-robin (every round runs each command once, the order rotating), so the other
# work on this shared 2-core machine falls on every client alike; hyperfine runs one command's runs after another's.
# Writes bench/results/exec-$BENCH_DATE.md. Run through `make bench` (release build, servers started), or
# `BENCH_ONLY=exec make bench`. BENCH_RUNS (default 30) sets the connect runs; each cat gets a third of them (min 5).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${ESSH:?run through make bench}"
# shellcheck disable=SC1090
. "$ESSH_TEST_SERVERS"
out=bench/results/exec-$BENCH_DATE.md
work=bench/work/exec
mkdir -p "$work"
# No agent: each client logs in with exactly the key it is given.
unset SSH_AUTH_SOCK
dest="$ESSH_TEST_USER@$ESSH_TEST_HOST"
gcm=aes128-gcm@openssh.com
# -n on both: stdin is never forwarded, whatever the runner's stdin is.
essh_base="$ESSH exec -n --known-hosts $ESSH_TEST_KNOWN_HOSTS -p $ESSH_TEST_PORT"
ssh_base="ssh -n -F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes -o UserKnownHostsFile=$ESSH_TEST_KNOWN_HOSTS -o GlobalKnownHostsFile=/dev/null -p $ESSH_TEST_PORT"
# Each client's command line up to and including DEST (options must come before DEST for essh).
essh_ed="$essh_base -i $ESSH_TEST_KEYS/id_ed25519 $dest"
essh_rsa="$essh_base -i $ESSH_TEST_KEYS/id_rsa $dest"
ssh_ed="$ssh_base -i $ESSH_TEST_KEYS/id_ed25519 $dest"
ssh_gcm="$ssh_base -c $gcm -i $ESSH_TEST_KEYS/id_ed25519 $dest"
ssh_rsa="$ssh_base -i $ESSH_TEST_KEYS/id_rsa $dest"
# essh gets a cipher option in a parallel change: measure essh with ssh's GCM cipher once it exists.
essh_gcm=""
if "$ESSH" exec --help 2>&1 | grep -q -- --ciphers; then
    essh_gcm="$essh_base --ciphers $gcm -i $ESSH_TEST_KEYS/id_ed25519 $dest"
fi
verbose() { # COMMAND-LINE-UP-TO-DEST: the same with -v before DEST
    local line=$1
    echo "${line% "$dest"} -v $dest"
}
runs=${BENCH_RUNS:-30}
runs200=$(( runs / 3 > 5 ? runs / 3 : 5 ))
runs1g=$runs200

# 1 GB for the test user, kept between runs (like the harness's 200 MB file).
data1g=$ESSH_TEST_HOME/data-1g
if [ "$(stat -c %s "$data1g" 2>/dev/null || echo 0)" != 1000000000 ]; then
    head -c 1000000000 /dev/urandom > "$data1g.tmp"
    chown "$ESSH_TEST_USER:$ESSH_TEST_USER" "$data1g.tmp"
    mv "$data1g.tmp" "$data1g"
fi
# Both files in the page cache before anything is timed.
cat "$ESSH_TEST_DATA_200M" "$data1g" > /dev/null

# Sanity: every client delivers the same bytes, and both keys log in.
want=$(sha256sum < "$ESSH_TEST_DATA_200M" | cut -d' ' -f1)
for c in "$essh_ed" "$ssh_ed" "$ssh_gcm" ${essh_gcm:+"$essh_gcm"}; do
    got=$($c "cat $ESSH_TEST_DATA_200M" | sha256sum | cut -d' ' -f1)
    [ "$got" = "$want" ] || { echo "bench-exec: '$c' delivered different bytes" >&2; exit 1; }
done
$essh_rsa true || { echo "bench-exec: essh cannot log in with the RSA key" >&2; exit 1; }
$ssh_rsa true || { echo "bench-exec: ssh cannot log in with the RSA key" >&2; exit 1; }

# What each client negotiated. The client's own report: ssh -v; essh -v's lines about kex/ciphers/MACs when it
# prints them. The server's view, for every client alike: a one-connection debug sshd (`sshd -dd`, the harness's
# config on a port of its own) logs the KEX, host key, ciphers and the user key's signature algorithm.
server_view() { # COMMAND-LINE-UP-TO-DEST
    local line=$1 port log kh pid
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    kh=$work/known_hosts.debug
    log=$work/sshd-debug.log
    sed "s/\]:$ESSH_TEST_PORT /]:$port /" "$ESSH_TEST_KNOWN_HOSTS" > "$kh"
    /usr/sbin/sshd -dd -e -f "$ESSH_TEST_STATE/main.conf" -p "$port" -o PidFile=none > "$log" 2>&1 &
    pid=$!
    # Not a probe connection: `sshd -d` serves exactly one.
    for _ in $(seq 1 100); do ss -Hltn "sport = :$port" | grep -q . && break; sleep 0.05; done
    line=${line/-p $ESSH_TEST_PORT/-p $port}
    line=${line//$ESSH_TEST_KNOWN_HOSTS/$kh}
    $line true > /dev/null 2>&1 || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    grep -E 'kex: (algorithm|host key algorithm|client->server cipher|server->client cipher)|authenticated 1 pkalg' "$log" \
        | tr -d '\r' | sed -E 's/ \[preauth\]$//; s/^debug[0-9]: /  server: /; s/userauth_pubkey: authenticated 1 pkalg/user key signature:/'
}
{
    echo "ssh (default):"; $(verbose "$ssh_ed") true 2>&1 | grep -E 'kex: (algorithm|host key algorithm|server->client cipher)' | sed 's/^/  /' || true
    server_view "$ssh_ed"
    echo "ssh -c $gcm:"; $(verbose "$ssh_gcm") true 2>&1 | grep -E 'kex: (algorithm|host key algorithm|server->client cipher)' | sed 's/^/  /' || true
    server_view "$ssh_gcm"
    echo "ssh (RSA key):"; $(verbose "$ssh_rsa") true 2>&1 | grep -E 'kex: algorithm|Server accepts key' | sed 's/^/  /' || true
    server_view "$ssh_rsa"
    for c in "$essh_ed" ${essh_gcm:+"$essh_gcm"} "$essh_rsa"; do
        case "$c" in "$essh_ed") echo "essh (default):" ;; "$essh_rsa") echo "essh (RSA key):" ;; *) echo "essh --ciphers $gcm:" ;; esac
        lines=$($(verbose "$c") true 2>&1 | grep -E 'kex|[Cc]ipher|MAC|host key algorithm|signature|rsa-sha2' || true)
        if [ -n "$lines" ]; then echo "$lines" | sed 's/^/  /'; else echo "  essh -v: not reported"; fi
        server_view "$c" | tee "$work/server-view.txt"
        if [ "$c" = "$essh_ed" ]; then
            sed -n -E 's/.*server->client cipher: ([^ ]+).*/\1/p' "$work/server-view.txt" > "$work/essh-cipher.txt"
        fi
    done
} > "$work/algorithms.txt"

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "connect before: $(load)" > "$work/load.txt"
python3 bench/interleaved.py --warmup 3 --runs "$runs" --export-json "$work/connect.json" \
    "essh true (ed25519)" "$essh_ed true" "ssh true (ed25519)" "$ssh_ed true" \
    "essh true (RSA)" "$essh_rsa true" "ssh true (RSA)" "$ssh_rsa true" > "$work/connect.txt"
echo "connect after / cat 200 MB before: $(load)" >> "$work/load.txt"
cat_bench() { # name file runs json
    local name=$1 file=$2 n=$3 json=$4
    local args=("essh $name" "$essh_ed cat $file")
    [ -n "$essh_gcm" ] && args+=("essh -c gcm $name" "$essh_gcm cat $file")
    args+=("ssh $name" "$ssh_ed cat $file" "ssh -c gcm $name" "$ssh_gcm cat $file")
    python3 bench/interleaved.py --warmup 1 --runs "$n" --export-json "$json" "${args[@]}"
}
cat_bench "200MB" "$ESSH_TEST_DATA_200M" "$runs200" "$work/cat200.json" > "$work/cat200.txt"
echo "cat 200 MB after / cat 1 GB before: $(load)" >> "$work/load.txt"
cat_bench "1GB" "$data1g" "$runs1g" "$work/cat1g.json" > "$work/cat1g.txt"
echo "cat 1 GB after: $(load)" >> "$work/load.txt"

python3 - "$work" "$out" "$essh_ed" "$essh_rsa" "$ssh_ed" "$ssh_rsa" "$essh_gcm" "$ssh_gcm" "$ESSH_TEST_DATA_200M" "$data1g" "$gcm" <<'PY'
import json, sys, subprocess
work, out, essh_ed, essh_rsa, ssh_ed, ssh_rsa, essh_gcm, ssh_gcm, data200, data1g, gcm = sys.argv[1:]
def load(name):
    return {x["command"]: x for x in json.load(open(f"{work}/{name}.json"))["results"]}
c, t200, t1g = load("connect"), load("cat200"), load("cat1g")
def run(*cmd):
    p = subprocess.run(list(cmd), capture_output=True, text=True)
    return (p.stdout + p.stderr).strip()
machine = subprocess.run(["bash", "bench/machine.sh"], capture_output=True, text=True).stdout
essh_version = run(essh_ed.split()[0], "--version")
origin = run("Sources/CLibSSH2/libssh2-from-debian.sh", "origin")
try:
    essh_cipher = open(f"{work}/essh-cipher.txt").read().strip()
except OSError:
    essh_cipher = ""
def row(name, r, gb=None):
    cpu = r["user"] + r["system"]
    extra = ""
    if gb:
        extra = f" {gb * 1000 / r['mean']:.0f} MB/s | {r['user']:.2f} + {r['system']:.2f} s | {cpu / gb:.2f} s |"
    else:
        extra = f" {cpu * 1000:.1f} ms |"
    return (f"| {name} | {r['mean']*1000:.1f} ms ± {r['stddev']*1000:.1f} | {r['median']*1000:.1f} ms | "
            f"{r['min']*1000:.1f} ms | {len(r['times'])} |" + extra)
def cpu_per_gb(r, gb): return (r["user"] + r["system"]) / gb
def verdict(ok): return "met" if ok else "**NOT met**"
lines = []
w = lines.append
w("# essh exec vs OpenSSH ssh (issue 12)\n")
w(machine.rstrip())
w(f"- essh --version: {essh_version}; its libssh2: {origin}")
w(f"- OpenSSH client: {run('ssh', '-V')}; OpenSSL: {run('openssl', 'version')}")
w("- server: OpenSSH sshd on 127.0.0.1 (Tests/Harness/test-servers.sh); user keys: ed25519 and RSA 2048 "
  "(.test-servers/keys/id_ed25519, id_rsa), no agent")
w("- load average (1, 5, 15 min) around each block:")
for l in open(f"{work}/load.txt").read().splitlines():
    w(f"  - {l}")
w("\n## Negotiated algorithms\n\n```")
w(open(f"{work}/algorithms.txt").read().rstrip())
w("```\n\n## Commands\n\n`bench/interleaved.py`: the commands round-robin, the order rotating each round (the load of "
  "this shared machine falls on every client alike); no shell, like `hyperfine -N`, so user and system time are the "
  "client's own CPU; stdin and stdout /dev/null.\n\n```")
w(f"interleaved.py --warmup 3 --runs {len(c['essh true (ed25519)']['times'])} '{essh_ed} true' '{ssh_ed} true' "
  f"'{essh_rsa} true' '{ssh_rsa} true'")
for data in (data200, data1g):
    cmds = [f"'{essh_ed} cat {data}'"] + ([f"'{essh_gcm} cat {data}'"] if essh_gcm else []) + \
           [f"'{ssh_ed} cat {data}'", f"'{ssh_gcm} cat {data}'"]
    runs_n = len((t200 if data == data200 else t1g)[("essh 200MB" if data == data200 else "essh 1GB")]["times"])
    w(f"interleaved.py --warmup 1 --runs {runs_n} {' '.join(cmds)}")
w("```\n\n## Results\n\n### connect + auth + `true`\n")
w("| command | mean | median | min | runs | client CPU |\n| --- | --- | --- | --- | --- | --- |")
for n in ["essh true (ed25519)", "ssh true (ed25519)", "essh true (RSA)", "ssh true (RSA)"]:
    w(row(n, c[n]))
ratios = []
for size, tab, gb in [("200MB", t200, 0.2), ("1GB", t1g, 1.0)]:
    label = "200 MB" if size == "200MB" else "1 GB"
    w(f"\n### `cat` {label} to /dev/null\n")
    w("| command | mean | median | min | runs | throughput (mean) | user + sys | CPU s/GB |\n"
      "| --- | --- | --- | --- | --- | --- | --- | --- |")
    names = [(f"essh {size}", "essh (default cipher)")]
    if essh_gcm: names.append((f"essh -c gcm {size}", f"essh --ciphers {gcm}"))
    names += [(f"ssh {size}", "ssh (default cipher)"), (f"ssh -c gcm {size}", f"ssh -c {gcm}")]
    for n, shown in names:
        w(row(shown, tab[n], gb))
    ratios.append((label, tab, size, gb))
w("\n## Ratios\n")
for key in ["ed25519", "RSA"]:
    r = c[f"essh true ({key})"]["mean"] / c[f"ssh true ({key})"]["mean"]
    w(f"- connect + auth + `true`, {key} key: essh takes **{r:.2f}×** ssh's time (target ≤ 0.35×): {verdict(r <= 0.35)}")
for label, tab, size, gb in ratios:
    e, s, sg = tab[f"essh {size}"], tab[f"ssh {size}"], tab[f"ssh -c gcm {size}"]
    r1 = s["mean"] / e["mean"]
    w(f"- `cat` {label}, essh (default cipher) vs ssh (default cipher): **{r1:.2f}×** ssh's throughput "
      f"(target ≥ 1.20×): {verdict(r1 >= 1.2)}")
    if essh_gcm:
        eg = tab[f"essh -c gcm {size}"]
        r2 = sg["mean"] / eg["mean"]
        w(f"- `cat` {label}, essh vs ssh both with {gcm}: **{r2:.2f}×** (target ≥ 1.00×): {verdict(r2 >= 1.0)}")
        ecpu = cpu_per_gb(eg, gb)
    elif essh_cipher == gcm:
        r2 = sg["mean"] / e["mean"]
        w(f"- `cat` {label}, essh vs ssh both with {gcm} (essh's default, as the server saw): **{r2:.2f}×** "
          f"(target ≥ 1.00×): {verdict(r2 >= 1.0)}")
    else:
        r2 = sg["mean"] / e["mean"]
        w(f"- `cat` {label}, same cipher: not measurable (this essh has no --ciphers and its default is "
          f"{essh_cipher or 'unknown'}); essh's default vs ssh -c {gcm}: **{r2:.2f}×** (target ≥ 1.00× with the "
          f"same cipher): {verdict(r2 >= 1.0)}")
    w(f"  - CPU per GB: essh {cpu_per_gb(e, gb):.2f} s ({essh_cipher or 'its default cipher'}) vs ssh "
      f"{cpu_per_gb(s, gb):.2f} s (default ciphers) = "
      f"{cpu_per_gb(e, gb) / cpu_per_gb(s, gb):.2f}×; ssh -c {gcm} {cpu_per_gb(sg, gb):.2f} s"
      + (f", essh with it {ecpu:.2f} s = {ecpu / cpu_per_gb(sg, gb):.2f}×" if essh_gcm else ""))
open(out, "w").write("\n".join(lines) + "\n")
print(open(out).read())
PY
