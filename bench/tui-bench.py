#!/usr/bin/env python3
"""Drives the real essh TUI in tmux (120x35) and measures it through ESSH_FRAME_TRACE.

Usage: tui-bench.py WORKDIR ESSH SERVERS_ENV
Prints the Markdown body of bench/results/tui-DATE.md on stdout; progress goes to stderr.

Every figure comes from the trace essh writes when ESSH_FRAME_TRACE is set: one line per drawn frame,
"<CLOCK_MONOTONIC ns> <cells changed> <loaded 0/1>". Python's time.monotonic_ns() reads the same clock, so
"keypress to frame" is: monotonic time just before `tmux send-keys` runs, to the first frame after it that
changed at least MIN_CELLS cells. It therefore includes tmux's own delivery (a tmux client process starting,
the tmux server writing to the pty) and is an upper bound of essh's own latency.
"""
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from frametrace import frames  # noqa: E402  (bench/frametrace.py)

WIDTH, HEIGHT = 120, 35
SAMPLES = 30
STARTS = 10
MIN_CELLS = 20  # a real redraw after a key; the session clock's 1 s tick changes fewer cells
work, essh, servers_env = sys.argv[1], sys.argv[2], sys.argv[3]
socket = f"essh-bench-{os.getpid()}"
conf = os.path.join(work, "tmux.conf")
with open(conf, "w") as f:
    f.write("set -g history-limit 0\nset -g escape-time 0\nset -g status off\n")
commands = []  # the exact commands, for the result file


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def tmux(*args, record=False):
    argv = ["tmux", "-u", "-L", socket, "-f", conf] + list(args)
    if record:
        commands.append(" ".join(argv))
    result = subprocess.run(argv, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"tui-bench: {' '.join(argv)} failed: {result.stderr.strip()}")
    return result.stdout


def screen():
    return tmux("capture-pane", "-p", "-t", "bench").splitlines()


def wait_screen(predicate, what, timeout=120.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        lines = screen()
        if predicate(lines):
            return lines
        time.sleep(0.05)
    raise SystemExit(f"tui-bench: timed out waiting for {what}; screen:\n" + "\n".join(screen()))


def wait_quiet(trace, quiet_s=1.5, timeout=300.0):
    """Waits until no frame was drawn for quiet_s (background work finished)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        f = frames(trace)
        if f and time.monotonic_ns() - f[-1][0] > quiet_s * 1e9:
            return
        time.sleep(0.1)
    raise SystemExit("tui-bench: the interface never went quiet")


def start(env, trace, pidfile, record=False):
    # python3 notes the monotonic time and its pid, then execs essh in place (same pid): the start time is
    # taken immediately before exec, so it includes loading the binary and its libraries.
    wrapper = ("import os,sys,time; open(sys.argv[1],'w').write('%d %d' % (os.getpid(), time.monotonic_ns())); "
               "os.execv(sys.argv[2], sys.argv[2:])")
    envs = " ".join(f"{k}={v}" for k, v in env.items())
    command = f"env {envs} ESSH_FRAME_TRACE={trace} LANG=C.UTF-8 TERM=tmux-256color python3 -c \"{wrapper}\" " \
              f"{pidfile} {essh}"
    tmux("new-session", "-d", "-x", str(WIDTH), "-y", str(HEIGHT), "-s", "bench", command, record=record)


def read_pid_t0(pidfile):
    end = time.monotonic() + 10
    while time.monotonic() < end:
        try:
            pid, t0 = open(pidfile).read().split()
            return int(pid), int(t0)
        except (FileNotFoundError, ValueError):
            time.sleep(0.01)
    raise SystemExit("tui-bench: essh did not start")


def stop():
    subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)
    end = time.monotonic() + 10
    while time.monotonic() < end:  # the next session needs the old server gone
        if subprocess.run(["tmux", "-L", socket, "has-session"], capture_output=True).returncode != 0:
            break
        time.sleep(0.05)
    time.sleep(0.3)


def key_latency(trace, keys, literal=False, min_cells=MIN_CELLS):
    """Sends keys once and returns ms from just before sending to the next frame changing >= min_cells."""
    before = len(frames(trace))
    args = ["send-keys", "-t", "bench"] + (["-l"] if literal else []) + [keys]
    argv = ["tmux", "-u", "-L", socket] + args
    t0 = time.monotonic_ns()
    subprocess.run(argv, check=True)
    end = time.monotonic() + 10
    while time.monotonic() < end:
        f = frames(trace)
        for stamp, cells, _ in f[before:]:
            if stamp >= t0 and cells >= min_cells:
                time.sleep(0.05)  # let the frame finish before the next key
                return (stamp - t0) / 1e6
        time.sleep(0.002)
    raise SystemExit(f"tui-bench: no frame after key {keys!r}; screen:\n" + "\n".join(screen()))


def series(trace, keys_list, literal=False, min_cells=MIN_CELLS):
    return [key_latency(trace, k, literal, min_cells) for k in keys_list]


def p95(values):
    ordered = sorted(values)
    return ordered[max(0, int(round(0.95 * len(ordered))) - 1)]


def row(name, values):
    return (f"| {name} | {len(values)} | {statistics.median(values):.1f} ms | {p95(values):.1f} ms | "
            f"{max(values):.1f} ms |")


def proc_status(pid, field):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith(field + ":"):
            return line.split()[1]
    return "?"


def cpu_ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime (fields 14 and 15)


def switches(pid, field):
    """The sum over all threads (a wakeup of any thread counts)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            total += int(proc_status(f"{pid}/task/{task}", field))
        except (FileNotFoundError, ValueError):
            pass
    return total


def idle(pid, trace, seconds=10):
    hz = os.sysconf("SC_CLK_TCK")
    threads0 = len(os.listdir(f"/proc/{pid}/task"))
    c0, n0 = cpu_ticks(pid), len(frames(trace))
    m0 = int(proc_status(pid, "voluntary_ctxt_switches"))  # the main thread: the UI loop
    a0 = switches(pid, "voluntary_ctxt_switches")
    time.sleep(seconds)
    threads1 = len(os.listdir(f"/proc/{pid}/task"))
    c1, n1 = cpu_ticks(pid), len(frames(trace))
    m1 = int(proc_status(pid, "voluntary_ctxt_switches"))
    a1 = switches(pid, "voluntary_ctxt_switches")
    cpu_ms = (c1 - c0) * 1000 / hz
    others = (f"{a1 - a0} summed over all {threads1} threads" if threads0 == threads1
              else f"threads went from {threads0} to {threads1}, so no all-thread sum")
    return (f"{seconds} s idle: CPU {cpu_ms:.0f} ms ({cpu_ms / seconds / 10:.2f} % of one core, utime+stime at "
            f"{hz} Hz); the UI thread woke {m1 - m0} times ({(m1 - m0) / seconds:.1f}/s, voluntary context "
            f"switches; {others}); {n1 - n0} frames drawn")


def loadavg():
    """The 1, 5 and 15 minute load averages now: other builds share this machine, so every section says its own."""
    return " ".join(open("/proc/loadavg").read().split()[:3])


def starts(db, count_label):
    """STARTS fresh starts: ms from exec to the first frame, and to the first frame with the loaded list."""
    firsts, loadeds = [], []
    for i in range(STARTS):
        tag = f"start-{count_label}-{i}"
        trace, pidfile = os.path.join(work, f"{tag}.trace"), os.path.join(work, f"{tag}.pid")
        start({"ESSH_DB": db}, trace, pidfile, record=(i == 0))
        pid, t0 = read_pid_t0(pidfile)
        end = time.monotonic() + 120
        while time.monotonic() < end and not any(l for _, _, l in frames(trace)):
            time.sleep(0.01)
        f = frames(trace)
        loaded = [s for s, _, l in f if l]
        if not loaded:
            raise SystemExit("tui-bench: the server list never loaded")
        firsts.append((f[0][0] - t0) / 1e6)
        loadeds.append((loaded[0] - t0) / 1e6)
        wait_screen(lambda s: any("host-00001" in l for l in s), "the list")
        stop()
    log("starts", count_label, firsts, loadeds)
    return firsts, loadeds


def list_keys(db, count_label, measure_idle):
    """Down, PgDn and filter keystrokes in the list of `db`, after its start check finished."""
    trace, pidfile = os.path.join(work, f"list-{count_label}.trace"), os.path.join(work, f"list-{count_label}.pid")
    start({"ESSH_DB": db}, trace, pidfile)
    pid, _ = read_pid_t0(pidfile)
    wait_screen(lambda s: any("host-00001" in l for l in s), "the list")
    wait_quiet(trace)  # the start check is done
    load = loadavg()
    down = series(trace, ["Down"] * SAMPLES)
    pgdn = series(trace, ["PageDown"] * SAMPLES)
    tmux("send-keys", "-t", "bench", "Home")
    time.sleep(0.3)
    key_latency(trace, "/", literal=True, min_cells=1)
    time.sleep(0.3)
    # alternately narrow (every name containing "1") and widen again: each key refilters every server
    typed = series(trace, ["1" if i % 2 == 0 else "BSpace" for i in range(SAMPLES)], min_cells=1)
    tmux("send-keys", "-t", "bench", "Escape")
    wait_quiet(trace)
    idle_list = idle(pid, trace) if measure_idle else None
    hwm = proc_status(pid, "VmHWM")
    rss = proc_status(pid, "VmRSS")
    stop()
    return {"down": down, "pgdn": pgdn, "typed": typed, "idle": idle_list, "hwm": hwm, "rss": rss, "load": load}


def main():
    env_servers = dict(line.strip().split("=", 1) for line in open(servers_env) if "=" in line)
    out = []
    sizes = [("10,000", os.path.join(work, "many.db")), ("100,000", os.path.join(work, "huge.db"))]

    # --- 1. start to first frame, 10,000 and 100,000 servers, N=STARTS fresh starts each ---
    start_rows, start_loads = [], []
    for label, db in sizes:
        start_loads.append(f"{label}: {loadavg()}")
        firsts, loadeds = starts(db, label.replace(",", ""))
        start_rows.append(row(f"first frame ({label} servers)", firsts))
        start_rows.append(row(f"first frame with the {label}-server list", loadeds))
    out.append("## Start to first frame (10,000 and 100,000 saved servers, 120x35 tmux)")
    out.append("")
    out.append("Time from the `exec` of essh to the first frame drawn, and to the first frame showing the loaded "
               f"server list; {STARTS} fresh starts per size. The background check of all servers starts with the "
               "load (it cannot be turned off: `check.interval` 0 still checks once at start) and runs "
               "concurrently; its targets are closed loopback ports, so it fails fast.")
    out.append("")
    out.append("| measure | N | median | p95 | max |")
    out.append("| --- | --- | --- | --- | --- |")
    out.extend(start_rows)
    out.append("")
    out.append("- load average (1, 5, 15 min) when each size's starts began: " + "; ".join(start_loads))
    out.append("")

    # --- 2. keys in the servers list, 10,000 then 100,000 ---
    keys = {label: list_keys(db, label.replace(",", ""), measure_idle=(label == "10,000")) for label, db in sizes}

    # --- 2b. the same Down key with 10 servers: how much of the latency the 10,000 and 100,000 cost ---
    trace, pidfile = os.path.join(work, "few.trace"), os.path.join(work, "few.pid")
    start({"ESSH_DB": os.path.join(work, "few.db")}, trace, pidfile)
    read_pid_t0(pidfile)
    wait_screen(lambda s: any("host-00001" in l for l in s), "the short list")
    wait_quiet(trace)
    few_load = loadavg()
    few_down = series(trace, ["Down", "Up"] * (SAMPLES // 2))
    stop()

    out.append("## Keypress to frame, 10,000 and 100,000 servers")
    out.append("")
    out.append(f"N={SAMPLES} each, after the start check finished. Filter: `/`, then alternately `1` (narrows to "
               "the names containing 1) and Backspace (all servers again); each keystroke refilters the list.")
    out.append("")
    out.append("| key | N | median | p95 | max |")
    out.append("| --- | --- | --- | --- | --- |")
    for label, _ in sizes:
        out.append(row(f"Down ({label})", keys[label]["down"]))
    out.append(row("Down/Up with only 10 servers (for comparison)", few_down))
    for label, _ in sizes:
        out.append(row(f"PgDn ({label})", keys[label]["pgdn"]))
    for label, _ in sizes:
        out.append(row(f"filter keystroke (1 / Backspace) ({label})", keys[label]["typed"]))
    out.append("")
    for label, _ in sizes:
        k = keys[label]
        out.append(f"- {label} servers: load average (1, 5, 15 min) before the keys {k['load']}; peak RSS (VmHWM) "
                   f"{k['hwm']} kB (VmRSS at the end {k['rss']} kB)")
    out.append(f"- 10 servers: load average before the keys {few_load}")
    out.append(f"- idle on the Servers screen (10,000): {keys['10,000']['idle']}")
    out.append("")

    # --- 3. one million lines of scrollback ---
    session_load = loadavg()
    one_db = os.path.join(work, "one.db")
    trace, pidfile = os.path.join(work, "session.trace"), os.path.join(work, "session.pid")
    start({"ESSH_DB": one_db, "ESSH_KNOWN_HOSTS": env_servers["ESSH_TEST_KNOWN_HOSTS"]}, trace, pidfile,
          record=True)
    pid, _ = read_pid_t0(pidfile)
    wait_screen(lambda s: any("box" in l and " ms" in l for l in s), "the checked server")
    tmux("send-keys", "-t", "bench", "Enter", record=True)
    wait_screen(lambda s: any("Type a command" in l for l in s), "the session")
    tmux("send-keys", "-t", "bench", "-l", "seq 1 1000000", record=True)
    time.sleep(0.3)
    t0 = time.monotonic_ns()
    tmux("send-keys", "-t", "bench", "Enter", record=True)
    wait_screen(lambda s: any("[exit 0" in l for l in s), "seq to finish", timeout=600)
    seq_s = (time.monotonic_ns() - t0) / 1e9
    last = wait_screen(lambda s: any(l.strip() == "1000000" for l in s), "the last line")
    time.sleep(1)
    pgup = series(trace, ["PageUp"] * SAMPLES)
    jumps = series(trace, ["End", "Home"] * 5)
    # Home shows the oldest line kept: a small number proves the scrollback holds (nearly) all of seq's lines
    top = wait_screen(lambda s: any(l.strip().isdigit() and int(l.strip()) <= 10 for l in s),
                      "seq's first lines after Home", timeout=10)
    oldest = next(l.strip() for l in top if l.strip().isdigit())
    idle_session = idle(pid, trace)
    hwm_session = proc_status(pid, "VmHWM")
    rss_session = proc_status(pid, "VmRSS")
    tmux("send-keys", "-t", "bench", "F10")
    stop()
    out.append("## One million lines of scrollback")
    out.append("")
    out.append("`session.scrollback` = 1000000; one session to the test sshd runs `seq 1 1000000`. Load average "
               f"(1, 5, 15 min) when the session started: {session_load}.")
    out.append("")
    out.append(f"- Enter to `[exit 0` on screen (tmux polled every 50 ms): {seq_s:.1f} s")
    out.append(f"- after Home the oldest line shown is seq's `{oldest}`: the scrollback holds "
               f"{1000000 - int(oldest) + 1:,} of seq's lines (the limit is 1,000,000 lines in all, and the "
               "echoed command line counts too)")
    out.append("")
    out.append("| key | N | median | p95 | max |")
    out.append("| --- | --- | --- | --- | --- |")
    out.append(row("PgUp in 1,000,000 lines", pgup))
    out.append(row("End / Home (newest / oldest of 1,000,000)", jumps))
    out.append("")
    out.append(f"- peak RSS (VmHWM) with 1,000,000 lines of scrollback: {hwm_session} kB "
               f"(VmRSS at the end {rss_session} kB)")
    out.append(f"- idle on the Session screen (its clock ticks once a second): {idle_session}")
    out.append("")
    out.append("Commands (tmux; the keypress samples use `tmux -u -L SOCKET send-keys -t bench KEY`):")
    out.append("```")
    out.extend(commands)
    out.append("```")
    print("\n".join(out))


try:
    main()
finally:
    stop()
