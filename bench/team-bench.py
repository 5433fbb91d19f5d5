#!/usr/bin/env python3
"""Issue 18's live and start-up figures for bench/bench-team.sh: prints Markdown on stdout, progress on stderr.

Usage:
  team-bench.py seen  ESSH MEMBER_DB PEER_DB CONNINFO_EDITOR CONNINFO_MEMBER PSQL_FETCH N
  team-bench.py live  ESSH MEMBER_DB WORKDIR CONNINFO_EDITOR CONNINFO_MEMBER N
  team-bench.py start ESSH LOCAL_DB TEAM_DB WORKDIR N

seen: a change seen by another member. An editor's libpq connection commits an UPDATE of one shared server (autocommit,
  as essh's push does per edit: one statement, one commit); a member's libpq connection LISTENs on essh_changes and, when
  the notification arrives, runs `essh team sync --json` on the member's cache (checked: it reports exactly that
  server changed). Per sample: t0 just before the UPDATE is sent; notified = the notification read on the member's
  socket; seen = `essh team sync` exited. Peers in the same run, interleaved sample by sample:
  raw = `SELECT pg_notify(...)` on the editor's connection to the member's connection reading it (no table, no trigger);
  psql = the same notification, then PSQL_FETCH (a shell pipeline: psql \\copy of the rows after the peer's revision
  into sqlite3) instead of essh. Both connections are libpq 5 through ctypes: the same library essh links.
live: a change seen by another member on the live path: the member's interface in tmux, its team worker, the first
  frame showing an editor's rename (see live()).
start: start of the interface to first frame, ESSH_FRAME_TRACE as bench/tui-bench.py does it (tmux 120x35, exec of
  essh to the first frame, and to the first frame with the list loaded), alternating the two databases start by start.
"""
import ctypes
import ctypes.util
import json
import os
import select
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from frametrace import frames  # noqa: E402  (bench/frametrace.py)


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def p95(values):
    ordered = sorted(values)
    return ordered[max(0, int(round(0.95 * len(ordered))) - 1)]


def row(name, values, unit="ms"):
    return (f"| {name} | {len(values)} | {statistics.median(values):.2f} {unit} | {min(values):.2f} {unit} | "
            f"{p95(values):.2f} {unit} | {max(values):.2f} {unit} |")


# --- libpq through ctypes ---------------------------------------------------------------------------------------

class PGnotify(ctypes.Structure):
    pass


PGnotify._fields_ = [("relname", ctypes.c_char_p), ("be_pid", ctypes.c_int), ("extra", ctypes.c_char_p),
                     ("next", ctypes.POINTER(PGnotify))]

pq = ctypes.CDLL(ctypes.util.find_library("pq") or "libpq.so.5")
pq.PQconnectdb.restype = ctypes.c_void_p
pq.PQconnectdb.argtypes = [ctypes.c_char_p]
pq.PQstatus.argtypes = [ctypes.c_void_p]
pq.PQerrorMessage.restype = ctypes.c_char_p
pq.PQerrorMessage.argtypes = [ctypes.c_void_p]
pq.PQexec.restype = ctypes.c_void_p
pq.PQexec.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
pq.PQresultStatus.argtypes = [ctypes.c_void_p]
pq.PQntuples.argtypes = [ctypes.c_void_p]
pq.PQgetvalue.restype = ctypes.c_char_p
pq.PQgetvalue.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
pq.PQcmdTuples.restype = ctypes.c_char_p
pq.PQcmdTuples.argtypes = [ctypes.c_void_p]
pq.PQclear.argtypes = [ctypes.c_void_p]
pq.PQsocket.argtypes = [ctypes.c_void_p]
pq.PQconsumeInput.argtypes = [ctypes.c_void_p]
pq.PQnotifies.restype = ctypes.POINTER(PGnotify)
pq.PQnotifies.argtypes = [ctypes.c_void_p]
pq.PQfreemem.argtypes = [ctypes.c_void_p]
pq.PQfinish.argtypes = [ctypes.c_void_p]
PGRES_COMMAND_OK, PGRES_TUPLES_OK = 1, 2


class Connection:
    def __init__(self, conninfo):
        self.conn = pq.PQconnectdb(conninfo.encode())
        if pq.PQstatus(self.conn) != 0:
            raise SystemExit(f"team-bench: cannot connect ({conninfo}): {pq.PQerrorMessage(self.conn).decode()}")

    def exec(self, sql):
        result = pq.PQexec(self.conn, sql.encode())
        status = pq.PQresultStatus(result)
        rows = pq.PQcmdTuples(result).decode()
        pq.PQclear(result)
        if status not in (PGRES_COMMAND_OK, PGRES_TUPLES_OK):
            raise SystemExit(f"team-bench: {sql!r} failed: {pq.PQerrorMessage(self.conn).decode()}")
        return rows

    def value(self, sql):
        """The first column of the one row `sql` returns."""
        result = pq.PQexec(self.conn, sql.encode())
        status = pq.PQresultStatus(result)
        ok = status == PGRES_TUPLES_OK and pq.PQntuples(result) == 1
        got = pq.PQgetvalue(result, 0, 0).decode() if ok else None
        pq.PQclear(result)
        if not ok:
            raise SystemExit(f"team-bench: {sql!r} did not return one row: {pq.PQerrorMessage(self.conn).decode()}")
        return got

    def drain(self):
        """Reads what arrived; returns the channels of the notifications."""
        if pq.PQconsumeInput(self.conn) != 1:
            raise SystemExit(f"team-bench: connection lost: {pq.PQerrorMessage(self.conn).decode()}")
        channels = []
        while True:
            note = pq.PQnotifies(self.conn)
            if not note:
                return channels
            channels.append(note.contents.relname.decode())
            pq.PQfreemem(note)

    def wait(self, channel, timeout=10.0):
        """Blocks until a notification on `channel`; returns time.monotonic_ns() when it was read."""
        sock = pq.PQsocket(self.conn)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if channel in self.drain():
                return time.monotonic_ns()
            select.select([sock], [], [], max(0.0, end - time.monotonic()))
        raise SystemExit(f"team-bench: no notification on {channel} within {timeout} s")


# --- seen ---------------------------------------------------------------------------------------------------

def seen(essh, member_db, peer_db, editor_info, member_info, psql_fetch, n):
    editor, member = Connection(editor_info), Connection(member_info)
    member.exec("LISTEN essh_changes")
    member.exec("LISTEN essh_bench_raw")
    env = dict(os.environ, ESSH_DB=member_db)
    raw, notified, synced, psql_seen = [], [], [], []
    for i in range(n):
        name = f"host-{(i % 1000) + 100:05d}"  # not among the 10 servers (b) changes
        # 1. raw: pg_notify between the two connections
        member.drain()
        t0 = time.monotonic_ns()
        editor.exec("SELECT pg_notify('essh_bench_raw', 'x')")
        raw.append((member.wait("essh_bench_raw") - t0) / 1e6)
        # 2. essh: the editor's UPDATE commits, the member is notified and runs essh team sync
        member.drain()
        value = f"seen-{i}"  # a new value each time: a same-value UPDATE is stamped but changes nothing
        t0 = time.monotonic_ns()
        if editor.exec(f"UPDATE essh.servers SET \"user\" = '{value}' WHERE name = '{name}' AND NOT deleted") != "1":
            raise SystemExit(f"team-bench: {name} is not in the team database")
        t1 = member.wait("essh_changes")
        result = subprocess.run([essh, "team", "sync", "--json"], env=env, capture_output=True, text=True)
        t2 = time.monotonic_ns()
        if result.returncode != 0:
            raise SystemExit(f"team-bench: essh team sync failed: {result.stderr.strip()}")
        changed = json.loads(result.stdout)["changed"]
        if changed != [name]:
            raise SystemExit(f"team-bench: essh team sync reported {changed}, not [{name}]")
        notified.append((t1 - t0) / 1e6)
        synced.append((t2 - t0) / 1e6)
        # 3. psql peer: another commit, the notification, then psql | sqlite3 fetches it
        member.drain()
        t0 = time.monotonic_ns()
        editor.exec(f"UPDATE essh.servers SET \"user\" = '{value}x' WHERE name = '{name}' AND NOT deleted")
        member.wait("essh_changes")
        result = subprocess.run(["bash", psql_fetch], capture_output=True, text=True)
        t2 = time.monotonic_ns()
        if result.returncode != 0:
            raise SystemExit(f"team-bench: {psql_fetch} failed: {result.stderr.strip()}")
        psql_seen.append((t2 - t0) / 1e6)
        # put the essh side back in step (the psql peer's change is not measured on the essh side)
        subprocess.run([essh, "team", "sync"], env=env, capture_output=True, check=True)
    got = subprocess.run(["sqlite3", peer_db, f"SELECT user FROM servers WHERE name = '{name}'"],
                         capture_output=True, text=True).stdout.strip()
    if got != f"{value}x":
        raise SystemExit(f"team-bench: the psql peer holds user {got!r} for {name}, not {value}x")
    med = statistics.median
    out = [
        "| measure (one change, editor's commit to …) | N | median | min | p95 | max |",
        "| --- | --- | --- | --- | --- | --- |",
        row("… the member's connection notified (essh_changes, UPDATE + trigger)", notified),
        row("… `essh team sync` done on the member's cache (CLI path)", synced),
        row("peer: raw `pg_notify` round trip between the same two connections", raw),
        row("peer: notified, then `psql \\copy` of the new rows `\\| sqlite3`", psql_seen),
        "",
        f"- ratios of medians: essh seen / raw notify = {med(synced) / med(raw):.0f}×; essh seen / psql+sqlite3 "
        f"peer = {med(synced) / med(psql_seen):.2f}×; notification of a committed UPDATE / raw notify = "
        f"{med(notified) / med(raw):.1f}×",
        f"- CLI path within the budget ≤ 1 s (median over {n}): {'yes' if med(synced) <= 1000 else 'no'} "
        f"({med(synced):.1f} ms)",
    ]
    print("\n".join(out))


# --- live ---------------------------------------------------------------------------------------------------

def percentile(values, q):
    """The nearest-rank q-th percentile (q in 0…1)."""
    ordered = sorted(values)
    return ordered[max(0, int(round(q * len(ordered))) - 1)]


def live(essh, member_db, work, editor_info, member_info, n):
    """A change seen by another member on the live path: the member's interface (the release binary in tmux
    120x35, ESSH_FRAME_TRACE on, its team worker LISTENing on essh_changes) on MEMBER_DB, already joined to the team.
    Per sample the editor's libpq connection renames one shared server shown on the Servers screen (host-00003,
    found by uid, to host-00003-NNN, a new name each time; the list's order keeps it in the same row), and the time
    runs from just before the UPDATE is sent to the first frame (the trace's CLOCK_MONOTONIC stamp, taken right
    after the frame was handed to the terminal) that shows the new name. Which frame that is, capture-pane decides:
    it is polled without pause from the commit on; the frame is the first one drawn after the start of the last
    capture that did not show the name (a frame drawn before a capture began that did not show the name did not
    carry it), or, when every frame in the window was drawn before that capture began (tmux had not yet read the
    bytes) or the first capture already showed it, the last frame up to SLACK after the capture that showed it (an
    upper bound). The peers interleaved sample by
    sample on two connections of the bench's own: the raw pg_notify round trip, and the member's connection
    notified of the UPDATE itself (the moment the interface's worker can start its sync)."""
    import re
    editor, member = Connection(editor_info), Connection(member_info)
    member.exec("LISTEN essh_changes")
    member.exec("LISTEN essh_bench_raw")
    target = "host-00003"
    uid = editor.value(f"SELECT uid FROM essh.servers WHERE name = '{target}' AND NOT deleted")
    socket = f"essh-team-live-{os.getpid()}"
    conf = os.path.join(work, "tmux-live.conf")
    with open(conf, "w") as f:
        f.write("set -g history-limit 0\nset -g escape-time 0\nset -g status off\n")
    trace = os.path.join(work, "live.trace")
    command = (f"env ESSH_DB={member_db} ESSH_FRAME_TRACE={trace} LANG=C.UTF-8 TERM=tmux-256color {essh}")
    tmux_argv = ["tmux", "-u", "-L", socket, "-f", conf]
    commands = [" ".join(tmux_argv + ["new-session", "-d", "-x", str(WIDTH), "-y", str(HEIGHT), "-s", "bench",
                                       f"'{command}'"])]

    def tmux(*args):
        r = subprocess.run(tmux_argv + list(args), capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"team-bench: tmux {' '.join(args)} failed: {r.stderr.strip()}")
        return r.stdout

    def shows(name, text):
        return re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text) is not None

    def wait_shown(name, timeout=20.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if shows(name, tmux("capture-pane", "-p", "-t", "bench")):
                return
            time.sleep(0.05)
        raise SystemExit(f"team-bench: {name} never shown; screen:\n" + tmux("capture-pane", "-p", "-t", "bench"))

    raw, notified, commit_ack, seen_ms, first_ms, polls, windows = [], [], [], [], [], [], []
    first_cells, name_cells = [], []
    fallbacks = 0
    tmux("new-session", "-d", "-x", str(WIDTH), "-y", str(HEIGHT), "-s", "bench", command)
    try:
        wait_shown(target, 60)
        # The start's checks of every server and the worker's first sync: wait until no frame came for 3 s (or 60 s).
        end = time.monotonic() + 60
        while time.monotonic() < end:
            f = frames(trace)
            if f and time.monotonic_ns() - f[-1][0] > 3e9:
                break
            time.sleep(0.1)
        if "team" not in tmux("capture-pane", "-p", "-t", "bench").lower():
            raise SystemExit("team-bench: the Servers screen shows no team line")
        first_screen = tmux("capture-pane", "-p", "-t", "bench")
        shown = target
        for i in range(n):
            # 1. raw pg_notify round trip between the bench's two connections
            member.drain()
            t0 = time.monotonic_ns()
            editor.exec("SELECT pg_notify('essh_bench_raw', 'x')")
            raw.append((member.wait("essh_bench_raw") - t0) / 1e6)
            # 2. the editor renames the shared server; the interface shows it
            member.drain()
            new = f"{target}-{i:03d}"
            before = len(frames(trace))
            t0 = time.monotonic_ns()
            if editor.exec(f"UPDATE essh.servers SET name = '{new}' WHERE uid = '{uid}' AND NOT deleted") != "1":
                raise SystemExit(f"team-bench: {target} ({uid}) is not in the team database")
            t_commit = time.monotonic_ns()
            t_note = member.wait("essh_changes")
            last_miss, count = None, 0
            end = time.monotonic() + 10
            while True:
                c0 = time.monotonic_ns()
                text = tmux("capture-pane", "-p", "-t", "bench")
                c1 = time.monotonic_ns()
                count += 1
                if shows(new, text):
                    if shows(shown, text):
                        raise SystemExit(f"team-bench: both {shown} and {new} on screen")
                    break
                last_miss = c0
                if time.monotonic() > end:
                    raise SystemExit(f"team-bench: {new} not shown within 10 s; screen:\n{text}")
            # essh stamps a frame right after handing it to the terminal: tmux may answer a capture before the
            # stamp is taken, so the window reaches SLACK past the end of the capture that showed the name.
            time.sleep(SLACK / 1e9)
            window = [(ts, cells) for ts, cells, _ in frames(trace)[before:] if t0 < ts <= c1 + SLACK]
            after_miss = [ts for ts, _ in window if last_miss is not None and ts > last_miss]
            if after_miss:
                frame = after_miss[0]
            elif window:
                frame = window[-1][0]
                fallbacks += 1
            else:
                raise SystemExit(f"team-bench: {new} shown without a frame traced after the commit")
            log(f"team-bench live {i}: window " + ", ".join(f"{(ts - t0) / 1e6:.1f} ms/{cells}" for ts, cells in window)
                + f"; last miss {(last_miss - t0) / 1e6 if last_miss else float('nan'):.1f} ms, shown by the capture"
                f" ending {(c1 - t0) / 1e6:.1f} ms; taken {(frame - t0) / 1e6:.1f} ms")
            seen_ms.append((frame - t0) / 1e6)
            first_ms.append((window[0][0] - t0) / 1e6)
            first_cells.append(window[0][1])
            name_cells.append(dict(window)[frame])
            commit_ack.append((t_commit - t0) / 1e6)
            notified.append((t_note - t0) / 1e6)
            polls.append(count)
            windows.append(len(window))
            shown = new
            if i % 10 == 9:
                log(f"team-bench live: {i + 1}/{n}, median so far {statistics.median(seen_ms):.1f} ms")
        last_screen = tmux("capture-pane", "-p", "-t", "bench")
        editor.exec(f"UPDATE essh.servers SET name = '{target}' WHERE uid = '{uid}'")
        wait_shown(target)
    finally:
        subprocess.run(tmux_argv + ["kill-server"], capture_output=True)
    med = statistics.median
    rows_near = [line.rstrip() for line in last_screen.splitlines() if shows(shown, line)]
    out = [
        "| measure (one change, editor's UPDATE sent to …) | N | median | min | p90 | max |",
        "| --- | --- | --- | --- | --- | --- |",
    ]

    def row90(name, values):
        return (f"| {name} | {len(values)} | {med(values):.2f} ms | {min(values):.2f} ms | "
                f"{percentile(values, 0.9):.2f} ms | {max(values):.2f} ms |")

    out += [
        row90("… the first frame of the member's interface showing it (**live path, the issue's figure**)", seen_ms),
        row90("… the interface's first frame after it (any change; the name is in it or in a later one)", first_ms),
        row90("… the editor's commit acknowledged", commit_ack),
        row90("… a member connection notified (essh_changes: UPDATE + trigger + commit)", notified),
        row90("peer: raw `pg_notify` round trip between the same two connections", raw),
        "",
        f"- ratio of medians, live path / raw notify: {med(seen_ms) / med(raw):.0f}×; live path / notified of the "
        f"UPDATE: {med(seen_ms) / med(notified):.1f}×",
        f"- budget ≤ 1 s (median over {n}): {'**pass**' if med(seen_ms) <= 1000 else '**FAIL**'} "
        f"(median {med(seen_ms):.1f} ms, p90 {percentile(seen_ms, 0.9):.1f} ms, max {max(seen_ms):.1f} ms)",
        f"- cells changed (the trace's second field): the first frame after the UPDATE median {med(first_cells):.0f} "
        f"(max {max(first_cells)}), the frame showing the name median {med(name_cells):.0f} (max {max(name_cells)}; "
        f"a rename to a name of the same width changes one cell, the first sample's widens the name column)",
        f"- frames traced between the UPDATE and the capture that showed the name: median {med(windows):.0f}, "
        f"max {max(windows)}; capture-pane polls per sample: median {med(polls):.0f}, max {max(polls)}; samples "
        f"where every frame in the window predated the last capture without the name (the last frame taken, an "
        f"upper bound): {fallbacks}",
        f"- the renamed row as the last capture shows it: `{' / '.join(rows_near) or '?'}`",
        "",
        "The interface's command (tmux 120x35) and its Servers screen before the first sample:",
        "```",
    ] + commands + ["```", "```"] + [line.rstrip() for line in first_screen.splitlines()] + ["```"]
    print("\n".join(out))


# --- start --------------------------------------------------------------------------------------------------

WIDTH, HEIGHT = 120, 35
SLACK = 20_000_000  # ns: see live()


def start_times(essh, local_db, team_db, work, n):
    socket = f"essh-team-bench-{os.getpid()}"
    conf = os.path.join(work, "tmux.conf")
    with open(conf, "w") as f:
        f.write("set -g history-limit 0\nset -g escape-time 0\nset -g status off\n")
    commands = []

    def tmux(*args):
        return subprocess.run(["tmux", "-u", "-L", socket, "-f", conf] + list(args), capture_output=True, text=True)

    def stop():
        subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            if subprocess.run(["tmux", "-L", socket, "has-session"], capture_output=True).returncode != 0:
                break
            time.sleep(0.05)
        time.sleep(0.3)

    wrapper = ("import os,sys,time; open(sys.argv[1],'w').write('%d %d' % (os.getpid(), time.monotonic_ns())); "
               "os.execv(sys.argv[2], sys.argv[2:])")
    results = {"local": ([], []), "team": ([], [])}
    try:
        for i in range(2 * n):
            label, db = ("local", local_db) if i % 2 == 0 else ("team", team_db)
            trace, pidfile = os.path.join(work, f"start-{label}-{i}.trace"), os.path.join(work, f"start-{i}.pid")
            command = (f"env ESSH_DB={db} ESSH_FRAME_TRACE={trace} LANG=C.UTF-8 TERM=tmux-256color "
                       f"python3 -c \"{wrapper}\" {pidfile} {essh}")
            if i < 2:
                commands.append(f"tmux -u -L {socket} -f {conf} new-session -d -x {WIDTH} -y {HEIGHT} -s bench "
                                + command)
            r = tmux("new-session", "-d", "-x", str(WIDTH), "-y", str(HEIGHT), "-s", "bench", command)
            if r.returncode != 0:
                raise SystemExit(f"team-bench: tmux failed: {r.stderr}")
            end = time.monotonic() + 10
            while True:
                try:
                    pid, t0 = map(int, open(pidfile).read().split())
                    break
                except (FileNotFoundError, ValueError):
                    if time.monotonic() > end:
                        raise SystemExit("team-bench: essh did not start")
                    time.sleep(0.01)
            end = time.monotonic() + 60
            while time.monotonic() < end and not any(l for _, _, l in frames(trace)):
                time.sleep(0.01)
            f = frames(trace)
            loaded = [s for s, _, l in f if l]
            if not loaded:
                raise SystemExit(f"team-bench: the server list of {db} never loaded")
            end = time.monotonic() + 30
            while "host-00001" not in tmux("capture-pane", "-p", "-t", "bench").stdout:
                if time.monotonic() > end:
                    raise SystemExit(f"team-bench: host-00001 never shown for {db}")
                time.sleep(0.05)
            results[label][0].append((f[0][0] - t0) / 1e6)
            results[label][1].append((loaded[0] - t0) / 1e6)
            stop()
    finally:
        stop()
    med = statistics.median
    lf, ll = results["local"]
    tf, tl = results["team"]
    ratio_first, ratio_loaded = med(tf) / med(lf), med(tl) / med(ll)
    # "as fast as today": within 10 % (or 5 ms, the spread of a start on this machine) of the local database
    passed = med(tl) <= max(med(ll) * 1.10, med(ll) + 5) and med(tf) <= max(med(lf) * 1.10, med(lf) + 5)
    out = [
        "| measure | N | median | min | p95 | max |",
        "| --- | --- | --- | --- | --- | --- |",
        row("first frame, 10,000 local servers (peer)", lf),
        row("first frame, 10,000-server team cache", tf),
        row("first frame with the list loaded, 10,000 local servers (peer)", ll),
        row("first frame with the list loaded, 10,000-server team cache", tl),
        "",
        f"- ratios team cache / local (medians): first frame {ratio_first:.2f}×, first frame with the list "
        f"{ratio_loaded:.2f}×",
        f"- budget \"as fast as today\" (read as: team-cache medians within 10 % or 5 ms of the local ones): "
        f"{'**pass**' if passed else '**FAIL**'}",
        "",
        "Commands (the first start of each database; the others differ only in the trace and pid file names):",
        "```",
    ] + commands + ["```"]
    print("\n".join(out))


if __name__ == "__main__":
    if len(sys.argv) == 9 and sys.argv[1] == "seen":
        seen(*sys.argv[2:8], int(sys.argv[8]))
    elif len(sys.argv) == 8 and sys.argv[1] == "live":
        live(*sys.argv[2:7], int(sys.argv[7]))
    elif len(sys.argv) == 7 and sys.argv[1] == "start":
        start_times(*sys.argv[2:6], int(sys.argv[6]))
    else:
        raise SystemExit(__doc__)
