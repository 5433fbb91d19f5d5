#!/usr/bin/env bash
# The full-screen interface in a real terminal (tmux, 120x35), measured through ESSH_FRAME_TRACE: start to first
# frame with 10,000 and 100,000 saved servers, keypress-to-frame latency for scrolling and filtering them (and with
# 10 for comparison), PgUp latency in 1,000,000 lines of session scrollback (a real session to the test sshd), peak
# RSS, idle CPU and wakeups, and the load average beside each measurement. There is no peer tool to compare with:
# the figures stand alone. Writes bench/results/tui-$BENCH_DATE$BENCH_SUFFIX.md (BENCH_SUFFIX: empty unless set).
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DATE=${BENCH_DATE:-$(date -u +%Y-%m-%d)}
ESSH=${ESSH:-$PWD/.build/release/essh}
ESSH_TEST_SERVERS=${ESSH_TEST_SERVERS:-$PWD/.test-servers/servers.env}
for tool in tmux sqlite3 python3; do
    command -v "$tool" >/dev/null || { echo "bench-tui: $tool is missing; run make bench-deps" >&2; exit 1; }
done
[ -x "$ESSH" ] || { echo "bench-tui: no essh binary at $ESSH; run swift build -c release" >&2; exit 1; }
[ -f "$ESSH_TEST_SERVERS" ] || {
    echo "bench-tui: the test servers are not running; run Tests/Harness/test-servers.sh start" >&2; exit 1; }
set -a; . "$ESSH_TEST_SERVERS"; set +a
mkdir -p bench/results bench/work
WORK=$(mktemp -d "$PWD/bench/work/tui.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# 100,000 servers, all on a closed loopback port (the start check fails fast and touches nothing outside); the
# first 10,000 of them make the 10,000-server database, the first 10 the 10-server one.
python3 - "$WORK/ssh_config.100000" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(1, 100001):
        f.write(f"Host host-{i:05d}\n    HostName 127.0.0.1\n    Port 9\n    User bench\n\n")
PY
head -n 50000 "$WORK/ssh_config.100000" > "$WORK/ssh_config"
# Imports FILE into DB, checks that COUNT servers arrived, prints the seconds it took (/usr/bin/time %e).
import_servers() {
    local db=$1 file=$2 count=$3 seconds got
    seconds=$( { /usr/bin/time -f %e env ESSH_DB="$db" "$ESSH" servers import-ssh-config "$file" >/dev/null; } 2>&1 \
        | tail -1)
    got=$(sqlite3 "$db" 'SELECT count(*) FROM server')
    [ "$got" = "$count" ] || { echo "bench-tui: imported $got servers into $db, not $count" >&2; exit 1; }
    echo "$seconds"
}
LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
IMPORT="ESSH_DB=$WORK/many.db $ESSH servers import-ssh-config $WORK/ssh_config"
IMPORT_S=$(import_servers "$WORK/many.db" "$WORK/ssh_config" 10000)
IMPORT100="ESSH_DB=$WORK/huge.db $ESSH servers import-ssh-config $WORK/ssh_config.100000"
IMPORT100_S=$(import_servers "$WORK/huge.db" "$WORK/ssh_config.100000" 100000)
# The same with 10 servers, to tell what the 10,000 and 100,000 cost.
head -n 50 "$WORK/ssh_config" > "$WORK/ssh_config.10"
ESSH_DB="$WORK/few.db" "$ESSH" servers import-ssh-config "$WORK/ssh_config.10" >/dev/null

# One server, the test sshd, with a million lines of scrollback (the Settings screen's limit).
ADD="ESSH_DB=$WORK/one.db $ESSH servers add box --host $ESSH_TEST_HOST --port $ESSH_TEST_PORT --user $ESSH_TEST_USER --key $ESSH_TEST_KEYS/id_ed25519"
ESSH_DB="$WORK/one.db" "$ESSH" servers add box --host "$ESSH_TEST_HOST" --port "$ESSH_TEST_PORT" \
    --user "$ESSH_TEST_USER" --key "$ESSH_TEST_KEYS/id_ed25519" >/dev/null
SETTING="INSERT OR REPLACE INTO setting(key, value) VALUES ('session.scrollback', '1000000')"
sqlite3 "$WORK/one.db" "$SETTING"

BODY=$(python3 bench/tui-bench.py "$WORK" "$ESSH" "$ESSH_TEST_SERVERS")
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
OUT=bench/results/tui-$BENCH_DATE${BENCH_SUFFIX:-}.md
{
    echo "# The full-screen interface: start, keypress-to-frame latency, memory, idle"
    echo
    ESSH=$ESSH bash bench/machine.sh
    echo
    echo "- load average (1, 5, 15 min) before the setup: $LOAD_BEFORE; after the last measurement: $LOAD_AFTER"
    echo
    echo "Setup (10,000 servers imported in $IMPORT_S s, 100,000 in $IMPORT100_S s):"
    echo '```'
    echo "python3 (in bench/bench-tui.sh) writes $WORK/ssh_config.100000: Host host-00001 … host-100000, 127.0.0.1 port 9"
    echo "head -n 50000 $WORK/ssh_config.100000 > $WORK/ssh_config  # the first 10,000"
    echo "$IMPORT"
    echo "$IMPORT100"
    echo "head -n 50 $WORK/ssh_config > $WORK/ssh_config.10  # 10 servers, for comparison"
    echo "ESSH_DB=$WORK/few.db $ESSH servers import-ssh-config $WORK/ssh_config.10"
    echo "$ADD"
    echo "sqlite3 $WORK/one.db \"$SETTING\""
    echo "python3 bench/tui-bench.py $WORK $ESSH $ESSH_TEST_SERVERS"
    echo '```'
    echo
    echo "How: essh runs in tmux 120x35 with \`ESSH_FRAME_TRACE=FILE\`, which makes it append"
    echo "\`<CLOCK_MONOTONIC ns> <cells changed> <list loaded 0/1>\` per drawn frame. A key's latency runs from"
    echo "\`time.monotonic_ns()\` just before \`tmux send-keys\` to the first later frame changing at least 20 cells"
    echo "(1 for filter keystrokes), so it includes tmux delivering the key: an upper bound for essh itself."
    echo "No peer tool: the figures stand alone."
    echo
    echo "$BODY"
} > "$OUT"
echo "bench-tui: wrote $OUT"
