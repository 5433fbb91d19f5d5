#!/usr/bin/env bash
# Issue 18's benchmark (section 4): a team's shared server list on PostgreSQL. Starts its own throwaway PostgreSQL
# cluster (Debian's postgresql, initdb as the postgres user under /run/essh-bench-<random>, a free loopback port,
# scram-sha-256 over TCP with a 0600 pgpass in a bench HOME; stopped and removed by a trap whatever happens), makes the
# team (`essh team init`, an editor ana and a member bob), puts 10,000 shared servers in it, and measures with the
# release binary, each beside a peer in the same run:
#   (a) first sync of 10,000 shared servers (`essh team join URL` into a new member database)
#       peer: the same rows moved by `psql \copy … TO STDOUT | sqlite3 .import`
#   (b) an incremental `essh team sync` bringing 10 changes; peer: the rows after the peer's revision, psql | sqlite3
#   (c) a change seen by another member, live path (bench/team-bench.py live): the member's interface in tmux with
#       its team worker, an editor's rename to the first frame showing it; peers: raw pg_notify round trip, the
#       notification of the UPDATE. CLI path (bench/team-bench.py seen): notified, then `essh team sync`; peer:
#       psql | sqlite3
#   (d) start of the interface to first frame with the 10,000-server team cache; peer: 10,000 local servers
# The test sshd is not needed. Writes bench/results/team-$BENCH_DATE$BENCH_SUFFIX.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BENCH_DATE=${BENCH_DATE:-$(date -u +%Y-%m-%d)}
ESSH=${ESSH:-$PWD/.build/release/essh}
RUNS=${TEAM_BENCH_RUNS:-10}
SEEN=${TEAM_BENCH_SEEN:-100}
STARTS=${TEAM_BENCH_STARTS:-20}
LIVE=${TEAM_BENCH_LIVE:-100}
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
for tool in hyperfine psql sqlite3 python3 tmux setpriv; do
    command -v "$tool" >/dev/null || { echo "bench-team: $tool is missing; run make bench-deps" >&2; exit 1; }
done
[ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] || {
    echo "bench-team: PostgreSQL's server is missing; run make bench-deps (it installs postgresql)" >&2; exit 1; }
[ "$(id -u)" = 0 ] || { echo "bench-team: run as root (PostgreSQL runs as the postgres user)" >&2; exit 1; }
[ -x "$ESSH" ] || { echo "bench-team: no essh binary at $ESSH; run swift build -c release" >&2; exit 1; }
mkdir -p bench/results bench/work
WORK=$(mktemp -d "$PWD/bench/work/team.XXXXXX")
CLUSTER=$(mktemp -d /run/essh-bench-XXXXXX)
cleanup() {
    if [ -f "$CLUSTER/data/postmaster.pid" ]; then
        setpriv --reuid=postgres --regid=postgres --init-groups "$PGBIN/pg_ctl" -D "$CLUSTER/data" -m fast -w \
            stop >/dev/null 2>&1 || true
    fi
    rm -rf "$CLUSTER" "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# --- the cluster ---
chmod 755 "$CLUSTER"
mkdir -m 700 "$CLUSTER/data" "$CLUSTER/socket" "$CLUSTER/log"
chown postgres:postgres "$CLUSTER/data" "$CLUSTER/socket" "$CLUSTER/log"
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_postgres "$PGBIN/initdb" -D "$CLUSTER/data" -U postgres -A scram-sha-256 --auth-local=trust -E UTF8 \
    --locale=C.UTF-8 --no-instructions >"$WORK/initdb.log" 2>&1 || { cat "$WORK/initdb.log" >&2; exit 1; }
PGSETTINGS="-p $PORT -k $CLUSTER/socket -c listen_addresses=127.0.0.1"
as_postgres "$PGBIN/pg_ctl" -D "$CLUSTER/data" -l "$CLUSTER/log/postgres.log" -o "$PGSETTINGS" -w start >/dev/null \
    || { cat "$CLUSTER/log/postgres.log" >&2; exit 1; }
SU_PSQL=(psql -X -q -v ON_ERROR_STOP=1 -h "$CLUSTER/socket" -p "$PORT" -U postgres)
# Passwords: random, given to PostgreSQL on psql's standard input, kept only in the bench HOME's 0600 .pgpass.
BHOME=$WORK/home
mkdir -m 700 "$BHOME"
: >"$BHOME/.pgpass"
chmod 600 "$BHOME/.pgpass"
for role in postgres ana bob; do
    secret=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    if [ "$role" = postgres ]; then
        printf 'ALTER ROLE postgres PASSWORD %s;\n' "'$secret'" | "${SU_PSQL[@]}" -d postgres -f -
    else
        printf 'CREATE ROLE %s LOGIN PASSWORD %s;\n' "$role" "'$secret'" | "${SU_PSQL[@]}" -d postgres -f -
    fi
    echo "127.0.0.1:$PORT:*:$role:$secret" >>"$BHOME/.pgpass"
done
unset secret
"${SU_PSQL[@]}" -d postgres -c 'CREATE DATABASE team'
export HOME=$BHOME
ADMIN_URL="postgres://postgres@127.0.0.1:$PORT/team"
EDITOR_URL="postgres://ana@127.0.0.1:$PORT/team"
MEMBER_URL="postgres://bob@127.0.0.1:$PORT/team"
INIT="$ESSH team init $ADMIN_URL"
ESSH_DB=$WORK/admin.db $INIT >"$WORK/init.log"
GRANTS="GRANT essh_editors TO ana; GRANT essh_members TO bob;"
"${SU_PSQL[@]}" -d team -c "$GRANTS"
PSQL_ANA=(psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PORT" -U ana -d team)
PSQL_BOB="psql -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p $PORT -U bob -d team"

# 10,000 shared servers, inserted by the editor ana in one SQL statement (the fastest honest way: the trigger stamps
# each row's revision, changed_by and changed_at exactly as for an edit pushed by essh). Same names and addresses as
# bench-tui's 10,000 local servers: host-00001 … host-10000, 127.0.0.1 port 9 (closed), user bench.
POPULATE="INSERT INTO essh.servers (uid, name, host, port, \"user\") SELECT gen_random_uuid(), format('host-%s', lpad(i::text, 5, '0')), '127.0.0.1', 9, 'bench' FROM generate_series(1, 10000) AS i"
POPULATE_S=$( { /usr/bin/time -f %e "${PSQL_ANA[@]}" -c "$POPULATE"; } 2>&1 | tail -1)
[ "$("${PSQL_ANA[@]}" -At -c 'SELECT count(*) FROM essh.servers WHERE NOT deleted')" = 10000 ]

LOAD_BEFORE=$(cut -d' ' -f1-3 /proc/loadavg)
stats() {  # hyperfine JSON -> "median|min|max|mean|runs" per command, in ms
    python3 - "$1" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    t = [x * 1000 for x in r["times"]]
    print(f'{r["median"] * 1000:.1f}|{min(t):.1f}|{max(t):.1f}|{r["mean"] * 1000:.1f}|{len(t)}')
PY
}

# --- (a) first sync of 10,000 ---
MEMBER=$WORK/member.db
PEER=$WORK/peer.db
COLUMNS='uid, name, host, port, "user", jump, tags, os, revision, deleted, changed_by, changed_at'
SQLITE_TABLE="CREATE TABLE servers (uid TEXT PRIMARY KEY, name TEXT, host TEXT, port INTEGER, user TEXT, jump TEXT, tags TEXT, os TEXT, revision INTEGER, deleted TEXT, changed_by TEXT, changed_at TEXT); CREATE TABLE staging AS SELECT * FROM servers WHERE 0"
cat >"$WORK/peer-first.sh" <<EOF
$PSQL_BOB -c '\\copy (SELECT $COLUMNS FROM essh.servers WHERE NOT deleted ORDER BY revision) TO STDOUT (FORMAT csv)' \\
    | sqlite3 -csv $PEER '.import /dev/stdin servers'
EOF
cat >"$WORK/peer-sync.sh" <<EOF
R=\$(sqlite3 $PEER 'SELECT max(revision) FROM servers')
$PSQL_BOB -c '\\copy (SELECT $COLUMNS FROM essh.servers WHERE revision > '"\$R"' ORDER BY revision) TO STDOUT (FORMAT csv)' \\
    | sqlite3 -csv $PEER '.import /dev/stdin staging' 'INSERT OR REPLACE INTO servers SELECT * FROM staging' \\
        'DELETE FROM staging'
EOF
JOIN="ESSH_DB=$MEMBER $ESSH team join $MEMBER_URL"
PREP_JOIN="rm -f $MEMBER $MEMBER-wal $MEMBER-shm && ESSH_DB=$MEMBER $ESSH servers list >/dev/null"
PREP_PEER="rm -f $PEER && sqlite3 $PEER '$SQLITE_TABLE'"
FIRST_CMD=(hyperfine -w 1 -r "$RUNS" --export-json "$WORK/first.json" -n "essh team join" -p "$PREP_JOIN" "$JOIN"
           -n "psql | sqlite3" -p "$PREP_PEER" "bash $WORK/peer-first.sh")
LOAD_A=$(cut -d' ' -f1-3 /proc/loadavg)
"${FIRST_CMD[@]}" >"$WORK/first.txt"
mapfile -t FIRST < <(stats "$WORK/first.json")
GOT=$(sqlite3 "$MEMBER" 'SELECT count(*) FROM server WHERE teamRevision > 0')
[ "$GOT" = 10000 ] || { echo "bench-team: the member's cache holds $GOT shared servers, not 10000" >&2; exit 1; }
GOT=$(sqlite3 "$PEER" 'SELECT count(*) FROM servers')
[ "$GOT" = 10000 ] || { echo "bench-team: the peer holds $GOT servers, not 10000" >&2; exit 1; }
JOIN_SAY=$(ESSH_DB=$WORK/say.db "$ESSH" team join "$MEMBER_URL")
cp "$MEMBER" "$WORK/team-cache.db"   # (d)'s team cache: the member's database right after (a)

# --- (b) incremental sync of 10 changes ---
# Before each run the editor changes the user of host-00001 … host-00010 (one UPDATE, 10 rows, 10 revisions).
TOGGLE="UPDATE essh.servers SET \"user\" = CASE \"user\" WHEN 'bench' THEN 'ops' ELSE 'bench' END WHERE name BETWEEN 'host-00001' AND 'host-00010'"
echo "$TOGGLE;" >"$WORK/toggle.sql"
PREP_TEN="${PSQL_ANA[*]} -f $WORK/toggle.sql"
SYNC="ESSH_DB=$MEMBER $ESSH team sync"
"${PSQL_ANA[@]}" -c "$TOGGLE"
CHECK_TEN=$(ESSH_DB=$MEMBER "$ESSH" team sync --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["changed"]))')
[ "$CHECK_TEN" = 10 ] || { echo "bench-team: a sync after 10 changes applied $CHECK_TEN" >&2; exit 1; }
bash "$WORK/peer-sync.sh"
INCR_CMD=(hyperfine -r $((RUNS * 3)) --export-json "$WORK/incr.json" -n "essh team sync (10 changes)" -p "$PREP_TEN"
          "$SYNC" -n "psql | sqlite3 (10 changes)" -p "$PREP_TEN" "bash $WORK/peer-sync.sh"
          -n "essh team sync (nothing new)" -p "$SYNC" "$SYNC"
          -n "psql SELECT 1 (one scram login)" -p true "$PSQL_BOB -c 'SELECT 1'")
LOAD_B=$(cut -d' ' -f1-3 /proc/loadavg)
"${INCR_CMD[@]}" >"$WORK/incr.txt"
mapfile -t INCR < <(stats "$WORK/incr.json")
SAY_TEN=$(ESSH_DB=$MEMBER "$ESSH" team sync; "${PSQL_ANA[@]}" -c "$TOGGLE"; ESSH_DB=$MEMBER "$ESSH" team sync)
PEER_USER=$(sqlite3 "$PEER" "SELECT user FROM servers WHERE name = 'host-00005'")
TEAM_USER=$("${PSQL_ANA[@]}" -At -c "SELECT \"user\" FROM essh.servers WHERE name = 'host-00005'")
CACHE_USER=$(sqlite3 "$MEMBER" "SELECT user FROM server WHERE name = 'host-00005'")
[ "$CACHE_USER" = "$TEAM_USER" ] || { echo "bench-team: the cache has $CACHE_USER, the team $TEAM_USER" >&2; exit 1; }

# --- (c) a change seen by another member ---
bash "$WORK/peer-sync.sh"   # the peer in step with the team before (c)
LOAD_C=$(cut -d' ' -f1-3 /proc/loadavg)
SEEN_CMD="python3 bench/team-bench.py seen $ESSH $MEMBER $PEER 'host=127.0.0.1 port=$PORT dbname=team user=ana' 'host=127.0.0.1 port=$PORT dbname=team user=bob' $WORK/peer-sync.sh $SEEN"
SEEN_BODY=$(python3 bench/team-bench.py seen "$ESSH" "$MEMBER" "$PEER" "host=127.0.0.1 port=$PORT dbname=team user=ana" \
    "host=127.0.0.1 port=$PORT dbname=team user=bob" "$WORK/peer-sync.sh" "$SEEN")
# The live path: the member's interface on the same database (after the CLI path: they would share the cache).
LOAD_CL=$(cut -d' ' -f1-3 /proc/loadavg)
LIVE_CMD="python3 bench/team-bench.py live $ESSH $MEMBER $WORK 'host=127.0.0.1 port=$PORT dbname=team user=ana' 'host=127.0.0.1 port=$PORT dbname=team user=bob' $LIVE"
LIVE_BODY=$(python3 bench/team-bench.py live "$ESSH" "$MEMBER" "$WORK" "host=127.0.0.1 port=$PORT dbname=team user=ana" \
    "host=127.0.0.1 port=$PORT dbname=team user=bob" "$LIVE")

# --- (d) start of the interface: the team cache after (a) vs 10,000 local servers ---
python3 - "$WORK/ssh_config" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    for i in range(1, 10001):
        f.write(f"Host host-{i:05d}\n    HostName 127.0.0.1\n    Port 9\n    User bench\n\n")
PY
IMPORT="ESSH_DB=$WORK/local.db $ESSH servers import-ssh-config $WORK/ssh_config"
ESSH_DB=$WORK/local.db "$ESSH" servers import-ssh-config "$WORK/ssh_config" >/dev/null
[ "$(sqlite3 "$WORK/local.db" 'SELECT count(*) FROM server')" = 10000 ]
[ "$(sqlite3 "$WORK/team-cache.db" 'SELECT count(*) FROM server')" = 10000 ]
LOCAL_SIZE=$(stat -c %s "$WORK/local.db")
TEAM_SIZE=$(stat -c %s "$WORK/team-cache.db")
LOAD_D=$(cut -d' ' -f1-3 /proc/loadavg)
START_CMD="python3 bench/team-bench.py start $ESSH $WORK/local.db $WORK/team-cache.db $WORK $STARTS"
START_BODY=$(python3 bench/team-bench.py start "$ESSH" "$WORK/local.db" "$WORK/team-cache.db" "$WORK" "$STARTS")
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)

# --- the result ---
cells() {  # "N | median | max" of the table row of $1 that contains $2
    python3 -c 'import sys
for line in sys.argv[1].splitlines():
    if sys.argv[2] in line and line.startswith("|"):
        c = [x.strip() for x in line.strip("|").split("|")]
        print(f"{c[1]} | {c[2]} | {c[-1]}")
        break
else:
    raise SystemExit("bench-team: no row " + sys.argv[2])' "$1" "$2"
}
ratio() { python3 -c "print(f'{$1 / $2:.2f}')"; }
verdict() { python3 -c "print('**pass**' if $1 <= $2 else '**FAIL**')"; }
IFS='|' read -r A_MED A_MIN A_MAX A_MEAN A_N <<<"${FIRST[0]}"
IFS='|' read -r AP_MED AP_MIN AP_MAX AP_MEAN AP_N <<<"${FIRST[1]}"
IFS='|' read -r B_MED B_MIN B_MAX B_MEAN B_N <<<"${INCR[0]}"
IFS='|' read -r BP_MED BP_MIN BP_MAX BP_MEAN BP_N <<<"${INCR[1]}"
IFS='|' read -r BN_MED BN_MIN BN_MAX BN_MEAN BN_N <<<"${INCR[2]}"
IFS='|' read -r BL_MED BL_MIN BL_MAX BL_MEAN BL_N <<<"${INCR[3]}"
OUT=bench/results/team-$BENCH_DATE${BENCH_SUFFIX:-}.md
{
    echo "# Team (issue 18): first sync, incremental sync, a change seen by another member, start with the team cache"
    echo
    ESSH=$ESSH bash bench/machine.sh
    echo "- PostgreSQL: $("$PGBIN/postgres" --version); libpq $(pkg-config --modversion libpq 2>/dev/null || echo '?'); $(psql --version); sqlite3 $(sqlite3 --version | cut -d' ' -f1); $(hyperfine --version)"
    echo "- load average (1, 5, 15 min) before the setup: $LOAD_BEFORE; before (a) $LOAD_A; (b) $LOAD_B; (c) CLI path $LOAD_C, live path $LOAD_CL; (d) $LOAD_D; after the last measurement: $LOAD_AFTER"
    echo
    echo "Cluster: Debian's PostgreSQL, initdb as the postgres user in /run/essh-bench-… (on disk, not tmpfs; the"
    echo "default settings: fsync and synchronous_commit on), 127.0.0.1 only, scram-sha-256 over TCP: every essh,"
    echo "psql and libpq connection below pays a full scram-sha-256 login (passwords in the bench HOME's 0600"
    echo ".pgpass). Removed at the end. Everything measured is the release binary."
    echo
    echo "Setup (10,000 servers inserted by the editor ana in $POPULATE_S s):"
    echo '```'
    echo "setpriv --reuid=postgres --regid=postgres --init-groups $PGBIN/initdb -D $CLUSTER/data -U postgres -A scram-sha-256 --auth-local=trust -E UTF8 --locale=C.UTF-8 --no-instructions"
    echo "setpriv … $PGBIN/pg_ctl -D $CLUSTER/data -l $CLUSTER/log/postgres.log -o '$PGSETTINGS' -w start"
    echo "psql -h $CLUSTER/socket -p $PORT -U postgres -d postgres  # ALTER ROLE postgres PASSWORD …; CREATE ROLE ana LOGIN PASSWORD …; CREATE ROLE bob LOGIN PASSWORD … (on stdin); CREATE DATABASE team"
    echo "HOME=$BHOME  # .pgpass (0600): 127.0.0.1:$PORT:*:{postgres,ana,bob}:<random>"
    echo "$INIT"
    echo "psql -h $CLUSTER/socket -p $PORT -U postgres -d team -c '$GRANTS'"
    echo "${PSQL_ANA[*]} -c \"$POPULATE\""
    echo '```'
    echo
    echo "## (a) First sync of 10,000 shared servers"
    echo
    echo "A member (bob) links a new database and pulls the 10,000 servers: \`essh team join\`. Each run starts"
    echo "from a new member database (made by \`essh servers list\` in the untimed prepare step, so the SQLite"
    echo "migrations are not counted). Peer: the same rows and columns (uid … changed_at, all 10,000) copied by"
    echo "\`psql \\copy … TO STDOUT (FORMAT csv)\` into \`sqlite3 .import\` (one transaction) in a fresh file — the floor"
    echo "of moving this data from PostgreSQL into SQLite with the stock tools. Checked after the runs: the member's"
    echo "cache has 10,000 shared rows (\`teamRevision > 0\`), the peer 10,000 rows. What essh says: \`$(echo "$JOIN_SAY" | tr '\n' ' ' | sed 's/ *$//')\`"
    echo
    echo "| command | runs | median | min | max | mean |"
    echo "| --- | --- | --- | --- | --- | --- |"
    echo "| \`essh team join URL\` (10,000) | $A_N | $A_MED ms | $A_MIN ms | $A_MAX ms | $A_MEAN ms |"
    echo "| peer: \`psql \\copy \\| sqlite3 .import\` (10,000) | $AP_N | $AP_MED ms | $AP_MIN ms | $AP_MAX ms | $AP_MEAN ms |"
    echo
    echo "- ratio essh / peer (medians): $(ratio "$A_MED" "$AP_MED")×"
    echo "- budget ≤ 1 s: $(verdict "$A_MED" 1000) (median $A_MED ms, max $A_MAX ms)"
    echo
    echo "## (b) Incremental sync of 10 changes"
    echo
    echo "Before each timed run (hyperfine's untimed prepare) the editor changes the user of host-00001 …"
    echo "host-00010 in one UPDATE (10 rows, 10 new revisions); the member's \`essh team sync\` pulls and applies"
    echo "them (checked once before the runs: \`--json\` lists 10 changed servers; after the runs the cache holds the"
    echo "team's value). Peer: the peer database's max revision read by sqlite3, then \`psql \\copy\` of the rows"
    echo "after it \`| sqlite3\` into a staging table, \`INSERT OR REPLACE\` into the table. \"Nothing new\" is a"
    echo "sync with no change: the fixed cost (process start, scram login, schema and role check, SQLite open)."
    echo
    echo "| command | runs | median | min | max | mean |"
    echo "| --- | --- | --- | --- | --- | --- |"
    echo "| \`essh team sync\` (10 changes) | $B_N | $B_MED ms | $B_MIN ms | $B_MAX ms | $B_MEAN ms |"
    echo "| peer: \`sqlite3; psql \\copy \\| sqlite3\` (10 changes) | $BP_N | $BP_MED ms | $BP_MIN ms | $BP_MAX ms | $BP_MEAN ms |"
    echo "| \`essh team sync\` (nothing new) | $BN_N | $BN_MED ms | $BN_MIN ms | $BN_MAX ms | $BN_MEAN ms |"
    echo "| \`psql -c 'SELECT 1'\` as bob (process start + one scram login) | $BL_N | $BL_MED ms | $BL_MIN ms | $BL_MAX ms | $BL_MEAN ms |"
    echo
    echo "- ratio essh / peer (medians): $(ratio "$B_MED" "$BP_MED")×; 10 changes / nothing new: $(ratio "$B_MED" "$BN_MED")×"
    echo "- budget ≤ 50 ms: $(verdict "$B_MED" 50) (median $B_MED ms, max $B_MAX ms)"
    echo "- what essh says (a sync with nothing new, then one after the toggle): \`$(echo "$SAY_TEN" | tr '\n' ' ' | sed 's/ *$//')\`"
    echo
    echo "## (c) A change seen by another member"
    echo
    echo "| path (editor's UPDATE sent to …) | N | median | max | run |"
    echo "| --- | --- | --- | --- | --- |"
    echo "| live: … the first frame of the member's interface showing it (**the issue's figure**) | $(cells "$LIVE_BODY" 'live path') | this run |"
    echo "| CLI: … \`essh team sync\` done after the notification | $(cells "$SEEN_BODY" '(CLI path)') | this run |"
    echo "| CLI: the same | 100 | 54.84 ms | 178.32 ms | team-2026-11-24.md (no team worker then) |"
    echo "| CLI: the same | 100 | 45.16 ms | 78.71 ms | team-2026-11-24b.md (no team worker then) |"
    echo
    echo "- budget ≤ 1 s (median over $LIVE, live path): $(verdict "$(cells "$LIVE_BODY" 'live path' | cut -d'|' -f2 | tr -dc '0-9.')" 1000)"
    echo
    echo "### Live path: the member's interface"
    echo
    echo "The member bob's interface (the release binary, tmux 120x35, \`ESSH_FRAME_TRACE\` as bench/tui-bench.py"
    echo "reads it) runs on the member database used by (a)-(c), joined to the team; its team worker"
    echo "(App/Workers/TeamWorker.swift) keeps one libpq connection, LISTENs on essh_changes, syncs on a"
    echo "notification and posts a message; the Servers screen reloads in place. Once the start's work is done (no"
    echo "frame for 3 s), $LIVE samples: the editor ana's libpq connection (Python ctypes on libpq.so.5) renames"
    echo "host-00003, the third row on screen (found by uid; a new name host-00003-NNN each time, which keeps the"
    echo "row in place), autocommit. The time runs from just before the UPDATE is sent to the trace's stamp of the"
    echo "first frame that shows the new name (taken by essh right after the frame was handed to the terminal, on"
    echo "the clock Python's monotonic_ns reads). capture-pane, polled without pause from the commit on, says which"
    echo "frame that is: the first one drawn after the start of the last capture that did not show the name; if all"
    echo "frames in the window were drawn before it (tmux had not read them yet), or the first capture showed it"
    echo "already, the last frame up to 20 ms after the capture that showed it (an upper bound; counted below; the"
    echo "20 ms because essh stamps a frame just after writing it). Each sample also checks that the old name is"
    echo "gone. Below the table: what happens in between, read from the trace's cells-changed field. The"
    echo "peers alternate with the samples on two connections of the bench's own (ana's and bob's): the raw"
    echo "\`pg_notify\` round trip, and bob's connection notified of the same UPDATE (when the interface's worker"
    echo "can begin its sync). Command: \`$LIVE_CMD\`"
    echo
    echo "$LIVE_BODY"
    echo
    echo "### CLI path (the earlier measurement, kept)"
    echo
    echo "Measured before the interface had a team worker, and run again here: a member's own libpq connection"
    echo "LISTENs on essh_changes; the editor's libpq connection commits an UPDATE of one shared server (the"
    echo "trigger stamps it and notifies); on the notification the member runs \`essh team sync --json\` and"
    echo "the time runs until it exits (checked every sample: it reports exactly that server changed): process"
    echo "start and a scram login each time, which the worker's kept connection does not pay. The three kinds of"
    echo "sample alternate, $SEEN each."
    echo
    echo "$SEEN_BODY"
    echo
    echo "## (d) Start of the interface with a 10,000-server team cache"
    echo
    echo "The team cache is the member's database right after (a) ($TEAM_SIZE bytes: 10,000 shared rows plus their"
    echo "team_base copies); the peer, 10,000 local servers imported from an ssh_config of the same names and"
    echo "addresses ($LOCAL_SIZE bytes). As bench/tui-bench.py: tmux 120x35, \`ESSH_FRAME_TRACE\`, time from the exec"
    echo "of essh to its first frame and to the first frame with the loaded list; the two databases alternate start"
    echo "by start, $STARTS starts each. The start check of every server runs in both (closed port 9 on 127.0.0.1)."
    echo
    echo "$START_BODY"
    echo
    echo "## Commands"
    echo
    echo '```'
    printf '%q ' "${FIRST_CMD[@]}"; echo
    echo "# $WORK/peer-first.sh:"
    cat "$WORK/peer-first.sh"
    printf '%q ' "${INCR_CMD[@]}"; echo
    echo "# $WORK/peer-sync.sh:"
    cat "$WORK/peer-sync.sh"
    echo "$SEEN_CMD"
    echo "$LIVE_CMD"
    echo "$IMPORT"
    echo "$START_CMD"
    echo '```'
    echo
    echo "hyperfine's output:"
    echo '```'
    cat "$WORK/first.txt" "$WORK/incr.txt"
    echo '```'
} >"$OUT"
echo "bench-team: wrote $OUT"
