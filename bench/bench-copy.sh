#!/usr/bin/env bash
# essh cp vs OpenSSH's scp and sftp (issue 16 §4), side by side in one run, against one sshd of this script's own
# (the harness's ed25519 host key, the harness's test user and its ed25519 key, `Subsystem sftp internal-sftp`):
#   1. a 1 GB file on loopback, up and down: essh cp, scp (SFTP mode, OpenSSH 9.2's default), scp with essh's cipher
#      (aes128-gcm), sftp -b                                          target: essh ≥ 1.0× OpenSSH's throughput
#   2. the same 1 GB at a 25 ms round trip, through bench/delay-relay.c (12.5 ms each way; this kernel has no
#      netem): essh cp, scp, sftp -b                                   target: ≥ 1.0×
#   3. a tree of 10,000 files of 4 KiB in 100 folders, recursive, up and down: essh cp -r, scp -r, and for reference
#      rsync -a -e ssh and tar piped through ssh                     target: essh ≤ 1.0× scp -r's time
# Timing: hyperfine -N, one block per table. Each run's copy is checked before the next run starts (hyperfine's
# --prepare runs bench/work/copy/check.sh: sha256 of the file, or of the tree's listing and every file's sha256,
# against the source's; then it removes the copy), and the last run's after hyperfine ends; the number of checked
# copies is in the results. Source and destinations live on tmpfs (/dev/shm) so the disk is not measured.
# Writes bench/results/copy-$BENCH_DATE.md. `BENCH_ONLY=bench-copy.sh make bench`, or by hand with the test servers
# running. BENCH_COPY_TOOLS=openssh measures only the OpenSSH rows (no essh needed); BENCH_COPY_SIZE (bytes,
# default 1000000000), BENCH_COPY_FILES (default 10000), BENCH_RUNS (loopback runs, default 5) and
# BENCH_COPY_RTT_RUNS (default 3) make a quicker run; results of a shortened run say so in their title.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ESSH=${ESSH:-$ROOT/.build/release/essh}
ENV=${ESSH_TEST_SERVERS:-$ROOT/.test-servers/servers.env}
BENCH_DATE=${BENCH_DATE:-$(date -u +%Y-%m-%d)}
TOOLS=${BENCH_COPY_TOOLS:-all}
SIZE=${BENCH_COPY_SIZE:-1000000000}
FILES=${BENCH_COPY_FILES:-10000}
RUNS=${BENCH_RUNS:-5}
RTT_RUNS=${BENCH_COPY_RTT_RUNS:-3}
ONE_WAY_MS=12.5
W=$ROOT/bench/work/copy
D=/dev/shm/essh-bench-copy
OUT=$ROOT/bench/results/copy-$BENCH_DATE.md

case $TOOLS in all | openssh) ;; *) echo "bench-copy: BENCH_COPY_TOOLS is all or openssh" >&2; exit 64 ;; esac
for tool in hyperfine scp sftp ssh rsync tar python3 cc /usr/sbin/sshd; do
    command -v "$tool" >/dev/null || { echo "bench-copy: $tool is missing (make bench-deps)" >&2; exit 1; }
done
[ -f "$ENV" ] || { echo "bench-copy: $ENV missing: start the test servers (Tests/Harness/test-servers.sh start)" >&2; exit 1; }
if [ "$TOOLS" = all ]; then
    [ -x "$ESSH" ] || { echo "bench-copy: no $ESSH (make release), or BENCH_COPY_TOOLS=openssh" >&2; exit 1; }
    "$ESSH" cp --help > /dev/null 2>&1 || { echo "bench-copy: $ESSH has no cp subcommand" >&2; exit 1; }
fi
# shellcheck disable=SC1090
set -a; . "$ENV"; set +a
unset SSH_AUTH_SOCK
user=$ESSH_TEST_USER
key=$ESSH_TEST_KEYS/id_ed25519

rm -rf "$W" "$D"
mkdir -p "$W" "$D/src" "$D/remote" "$D/local" /run/sshd
chmod 755 "$D" "$D/src"
chown "$user:$user" "$D/remote"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    [ -f "$W/sshd.pid" ] && kill "$(cat "$W/sshd.pid")" 2>/dev/null
    rm -rf "$D"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_port() { for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done; return 1; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# The sshd both tools talk to: key login only, no PAM, no DNS, OpenSSH's SFTP server inside sshd.
port=$(free_port)
cat > "$W/sshd.conf" <<CONF
Port $port
ListenAddress 127.0.0.1
HostKey $ESSH_TEST_HOSTKEYS/ssh_host_ed25519_key
PidFile $W/sshd.pid
AuthorizedKeysFile $ESSH_TEST_AUTHORIZED_KEYS
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
UseDNS no
MaxStartups 100:30:200
MaxSessions 16
LogLevel INFO
PrintMotd no
PrintLastLog no
AllowUsers $user
Subsystem sftp internal-sftp
CONF
/usr/sbin/sshd -t -f "$W/sshd.conf"
/usr/sbin/sshd -f "$W/sshd.conf" -E "$W/sshd.log"
wait_port "$port" || { echo "bench-copy: sshd did not listen on $port; see $W/sshd.log" >&2; exit 1; }

# The relay: 12.5 ms each way, so every round trip through it takes 25 ms more.
cc -O2 -pthread -o "$W/delay-relay" bench/delay-relay.c
rport=$(free_port)
"$W/delay-relay" "$rport" "$port" "$ONE_WAY_MS" 2> "$W/relay.log" &
pids+=($!)
wait_port "$rport" || { echo "bench-copy: the relay did not listen; see $W/relay.log" >&2; exit 1; }

read -r ktype kdata _ < "$ESSH_TEST_HOSTKEYS/ssh_host_ed25519_key.pub"
kh=$W/known_hosts
printf '[127.0.0.1]:%s %s %s\n[127.0.0.1]:%s %s %s\n' "$port" "$ktype" "$kdata" "$rport" "$ktype" "$kdata" > "$kh"

# The round trip as SSH sees it, direct and through the relay: from sending the client's version line to the
# server's KEXINIT (sshd sends it once it has read the client's version), median of 7.
rtt() {
    python3 - "$1" <<'PY'
import socket, statistics, sys, time
samples = []
for _ in range(7):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    banner = b""
    while not banner.endswith(b"\r\n"):
        banner += s.recv(1)
    start = time.perf_counter()
    s.sendall(b"SSH-2.0-essh-bench-rtt\r\n")
    s.recv(1)
    samples.append((time.perf_counter() - start) * 1000)
    s.close()
print("%.2f ms (min %.2f, max %.2f)" % (statistics.median(samples), min(samples), max(samples)))
PY
}
rtt_direct=$(rtt "$port")
rtt_relay=$(rtt "$rport")

# The data: one random file, and a tree of FILES random 4 KiB files in 100 folders; readable by the test user.
head -c "$SIZE" /dev/urandom > "$D/src/big"
python3 - "$D/src/tree" "$FILES" <<'PY'
import os, sys
root, files = sys.argv[1], int(sys.argv[2])
folders = 100 if files >= 100 else 1
for i in range(files):
    d = os.path.join(root, "d%03d" % (i % folders))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "f%05d" % i), "wb") as f:
        f.write(os.urandom(4096))
PY
chmod -R a+rX "$D/src"

cat > "$W/check.sh" <<'SH'
# check.sh KIND DEST WANT NAME: if DEST exists, its sha256 (KIND file) or its tree sum (KIND tree) must be WANT;
# then it is removed. A mismatch keeps DEST and fails (hyperfine stops).
kind=$1 dest=$2 want=$3 name=$4
[ -e "$dest" ] || exit 0
treesum() { (cd "$1" && find . -printf '%y %p\n' | LC_ALL=C sort && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum) | sha256sum | cut -c1-64; }
if [ "$kind" = file ]; then got=$(sha256sum < "$dest" | cut -c1-64); else got=$(treesum "$dest"); fi
if [ "$got" != "$want" ]; then echo "BAD $name $dest" >> "$(dirname "$0")/checks.log"; echo "check: $dest differs from its source" >&2; exit 1; fi
echo "ok $name" >> "$(dirname "$0")/checks.log"
rm -rf "$dest"
SH
: > "$W/checks.log"
big_sum=$(sha256sum < "$D/src/big" | cut -c1-64)
tree_sum=$(bash -c "$(sed -n '/^treesum()/p' "$W/check.sh"); treesum $D/src/tree")

# Command lines. OpenSSH: no config file, no agent, exactly this key, the same known_hosts as essh.
ssh_opts="-F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes -i $key -o UserKnownHostsFile=$kh -o GlobalKnownHostsFile=/dev/null"
gcm=aes128-gcm@openssh.com
essh_opts="--known-hosts $kh --host-key-policy strict -i $key"
if [ "$TOOLS" = all ] && "$ESSH" cp --help 2>&1 | grep -q -- '--db'; then essh_opts="$essh_opts --db $W/essh.db"; fi
at="$user@127.0.0.1"

# hyperfine arguments for one block: NAME KIND DEST COMMAND ... (each copy checked by the next run's --prepare).
block_args=()
block_checks=()
add() { # NAME KIND DEST WANT COMMAND
    block_args+=(--prepare "bash $W/check.sh $2 $3 $4 $1" -n "$1" "$5")
    block_checks+=("$2 $3 $4 $1")
}
sftp_batch() { # NAME LINE: a batch file for sftp -b
    echo "$2" > "$W/$1.batch"
    echo "$W/$1.batch"
}
run_block() { # BLOCK RUNS WARMUP
    local name=$1 runs=$2 warmup=$3 c
    echo "$name before: $(load)" >> "$W/load.txt"
    hyperfine -N --runs "$runs" --warmup "$warmup" --export-json "$W/$name.json" "${block_args[@]}" | tee "$W/$name.txt"
    for c in "${block_checks[@]}"; do bash "$W/check.sh" $c; done
    echo "$name after: $(load)" >> "$W/load.txt"
    printf '%s\n' "${block_args[@]}" > "$W/$name.args"
    block_args=()
    block_checks=()
}

# 1. 1 GB on loopback.
for dir in up down; do
    for p in "$port:loopback:$RUNS:1" "$rport:rtt:$RTT_RUNS:0"; do
        IFS=: read -r P where runs warmup <<< "$p"
        for tool in essh essh-1lane scp scp-gcm sftp; do
            [[ "$tool" = essh* ]] && [ "$TOOLS" != all ] && continue
            # One lane: what the split of one big upload over up to 4 lanes gains (uploads only; downloads use one).
            [ "$tool" = essh-1lane ] && [ $dir = down ] && continue
            [ "$tool" = scp-gcm ] && [ "$where" = rtt ] && continue
            if [ $dir = up ]; then src=$D/src/big; dst=$D/remote/big.$where.$tool; rsrc=$src; rdst=$at:$dst
            else src=$D/src/big; dst=$D/local/big.$where.$tool; rsrc=$at:$src; rdst=$dst; fi
            case $tool in
            essh) cmd="$ESSH cp $essh_opts -P $P $rsrc $rdst" ;;
            essh-1lane) cmd="$ESSH cp $essh_opts --parallel 1 -P $P $rsrc $rdst" ;;
            scp) cmd="scp -q $ssh_opts -P $P $rsrc $rdst" ;;
            scp-gcm) cmd="scp -q $ssh_opts -c $gcm -P $P $rsrc $rdst" ;;
            sftp)
                if [ $dir = up ]; then line="put $src $dst"; else line="get $src $dst"; fi
                cmd="sftp -q $ssh_opts -P $P -b $(sftp_batch "$where-$dir" "$line") $at" ;;
            esac
            add "$tool" file "$dst" "$big_sum" "$cmd"
        done
        run_block "big-$where-$dir" "$runs" "$warmup"
    done
done

# 3. The tree, recursive, on loopback.
for dir in up down; do
    for tool in essh scp rsync tar; do
        [ "$tool" = essh ] && [ "$TOOLS" != all ] && continue
        if [ $dir = up ]; then dst=$D/remote/tree.$tool; rsrc=$D/src/tree; rdst=$at:$dst
        else dst=$D/local/tree.$tool; rsrc=$at:$D/src/tree; rdst=$dst; fi
        case $tool in
        essh) cmd="$ESSH cp $essh_opts -P $port -r $rsrc $rdst" ;;
        scp) cmd="scp -q $ssh_opts -P $port -r $rsrc $rdst" ;;
        rsync) cmd="rsync -a -e 'ssh $ssh_opts -p $port' $rsrc/ $rdst/" ;;
        tar)
            if [ $dir = up ]; then
                cmd="bash -c 'tar -C $D/src/tree -cf - . | ssh $ssh_opts -p $port $at \"mkdir $dst && tar -C $dst -xf -\"'"
            else
                cmd="bash -c 'mkdir $dst && ssh $ssh_opts -p $port $at \"tar -C $D/src/tree -cf - .\" | tar -C $dst -xf -'"
            fi ;;
        esac
        add "$tool" tree "$dst" "$tree_sum" "$cmd"
    done
    run_block "tree-$dir" "$RUNS" 1
done

checked=$(grep -c '^ok ' "$W/checks.log" || true)
bad=$(grep -c '^BAD ' "$W/checks.log" || true)

python3 - "$W" "$SIZE" "$FILES" "$TOOLS" > "$W/figures.md" <<'PY'
import json, sys
work, size, files, tools = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
def block(name):
    return {r["command"]: r for r in json.load(open(f"{work}/{name}.json"))["results"]}
names = {"essh": "essh cp", "essh-1lane": "essh cp --parallel 1 (one lane)", "scp": "scp", "scp-gcm": "scp -c aes128-gcm", "sftp": "sftp -b",
         "rsync": "rsync -a -e ssh", "tar": "tar piped through ssh"}
def cpu(r): return r["user"] + r["system"]
ratios = []
def big(where, title, target_note):
    print(f"### {title}")
    print()
    print("| tool | up: mean | MB/s | client CPU | down: mean | MB/s | client CPU |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    up, down = block(f"big-{where}-up"), block(f"big-{where}-down")
    def cells(r):
        if r is None:
            return "— | — | —"
        return f"{r['mean']:.2f} s ± {r['stddev'] or 0:.2f} | {size / r['mean'] / 1e6:.0f} | {cpu(r):.2f} s"
    for tool in up:
        print(f"| {names[tool]} | {cells(up[tool])} | {cells(down.get(tool))} |")
    print()
    for dname, b in (("up", up), ("down", down)):
        for tool in b:
            if tool == "essh" or "essh" not in b:
                continue
            r = b[tool]["mean"] / b["essh"]["mean"]   # throughput ratio essh / tool
            target = tool not in ("scp-gcm", "essh-1lane")   # like for like, and essh's own one lane: references
            ratios.append((f"{label} {where} {dname}: essh cp / {names[tool]} throughput", r,
                           r >= 1.0 if target else None, target_note if target else "reference"))
def tree():
    print(f"### {files:,} files of 4 KiB in {100 if files >= 100 else 1} folders, recursive, loopback")
    print()
    print("| tool | up: mean | min | client CPU | down: mean | min | client CPU |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    up, down = block("tree-up"), block("tree-down")
    for tool in up:
        u, d = up[tool], down[tool]
        print(f"| {names[tool]} | {u['mean']:.2f} s ± {u['stddev'] or 0:.2f} | {u['min']:.2f} s | {cpu(u):.2f} s | "
              f"{d['mean']:.2f} s ± {d['stddev'] or 0:.2f} | {d['min']:.2f} s | {cpu(d):.2f} s |")
    print()
    for dname, b in (("up", up), ("down", down)):
        if "essh" not in b:
            continue
        for tool in ("scp", "rsync", "tar"):
            r = b["essh"]["mean"] / b[tool]["mean"]   # time ratio essh / tool
            target = tool == "scp"
            ratios.append((f"tree {dname}: essh cp -r / {names[tool]} time", r, r <= 1.0 if target else None,
                           "≤ 1.0×" if target else "reference"))
label = "1 GB" if size == 1000000000 else f"{size:,}-byte"
big("loopback", f"{label} file, loopback", "≥ 1.0×")
big("rtt", f"{label} file, 25 ms round trip (delay-relay)", "≥ 1.0×")
tree()
print("### Ratios (essh / OpenSSH)")
print()
if not ratios:
    print("essh was not measured in this run (BENCH_COPY_TOOLS=openssh).")
else:
    print("| comparison | ratio | target | |")
    print("| --- | --- | --- | --- |")
    for what, r, ok, target in ratios:
        mark = "" if ok is None else ("met" if ok else "MISSED")
        print(f"| {what} | {r:.2f}× | {target} | {mark} |")
PY

shortened=""
if [ "$SIZE" != 1000000000 ] || [ "$FILES" != 10000 ]; then shortened=" (SHORTENED RUN: $SIZE bytes, $FILES files)"; fi
{
    echo "# essh cp vs scp, sftp and rsync (issue 16)$shortened"
    echo
    # machine.sh's lines; essh --version's second line (its libssh2) joined to the first
    bash bench/machine.sh | awk '/^- /{if (l != "") print l; l = $0; next} {l = l "; " $0} END {print l}'
    echo "- OpenSSH client and server: $(ssh -V 2>&1)"
    echo "- rsync: $(rsync --version | head -1) (Debian); tar: $(tar --version | head -1)"
    echo "- hyperfine: $(hyperfine --version)"
    echo "- load average (1, 5, 15 min) around each block:"
    sed 's/^/  - /' "$W/load.txt"
    echo
    echo "## Setup"
    echo
    echo "- One OpenSSH sshd of the script's own on 127.0.0.1 (config below): the harness's ed25519 host key, login as"
    echo "  the test user ($user) with the harness's ed25519 key, no agent, \`Subsystem sftp internal-sftp\`. Both tools"
    echo "  check the same known_hosts. OpenSSH runs with its defaults (chacha20-poly1305, sntrup761x25519); the"
    echo "  \`scp -c aes128-gcm\` row gives it essh's cipher (like for like); targets are judged against the defaults."
    echo "- Files on tmpfs (/dev/shm) at both ends, so no disk is measured: a $SIZE-byte random file and $FILES random"
    echo "  4 KiB files in 100 folders. Every copy was checked (sha256 of the file; for trees, sha256 of the sorted"
    echo "  listing and every file's sha256) and removed before the next run: $checked copies checked, $bad differed."
    echo "- 25 ms round trip: bench/delay-relay.c (built with \`cc -O2 -pthread\`), \`delay-relay $rport $port $ONE_WAY_MS\`:"
    echo "  a threaded relay on 127.0.0.1 that reads up to 64 KiB at a time, holds each chunk $ONE_WAY_MS ms and writes it"
    echo "  on, in each direction, with at most 64 MiB queued per direction (a full queue stops reading). SSH's round"
    echo "  trip (client version line → server KEXINIT): direct $rtt_direct; through the relay $rtt_relay. TCP on"
    echo "  each side of the relay runs over loopback, so only SSH's and SFTP's own windows see the delay."
    echo "- Timing: hyperfine -N; client CPU is user+sys of the client's process tree (sshd's is not counted);"
    echo "  $RUNS runs (1 warm-up) per loopback row, $RTT_RUNS runs (no warm-up) per 25 ms row. MB/s = $SIZE bytes / mean."
    echo
    echo "## Commands"
    echo
    echo '```'
    cat "$W/sshd.conf"
    echo
    for f in "$W"/*.args; do
        echo "# $(basename "$f" .args)"
        grep -v -e '^--prepare$' -e '^-n$' -e "^bash $W/check.sh" "$f" | paste - - | cut -f2
    done
    for f in "$W"/*.batch; do echo "# $(basename "$f"): $(cat "$f")"; done
    echo '```'
    echo
    echo "## Results"
    echo
    cat "$W/figures.md"
} > "$OUT"
cat "$OUT"
[ "$bad" = 0 ]
