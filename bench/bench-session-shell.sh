#!/usr/bin/env bash
# The interface's session (issue 14 §1): per-command latency of the persistent shell (SSH.SessionShell: one line to
# the shell, its markers back) against a channel per command (SSHSession.run: open a channel, exec, the server's
# fork and the login shell, exit status, close), both on one already open session to the harness sshd.
# BENCH_RUNS (default 200) rounds, each running the command once each way, the order alternating; 10 warm-up rounds
# first. Also the cost of starting the shell (once per session), 20 times. Timed inside the test process
# (Tests/SSHTests/SessionShellBenchmark.swift, enabled by ESSH_BENCH_SHELL), from the call to its return.
# Writes bench/results/session-shell-$BENCH_DATE.md. Run through `make bench` (servers started) or
# `BENCH_ONLY=session-shell make bench`; alone: `bash bench/bench-session-shell.sh` with the test servers running.
set -euo pipefail
cd "$(dirname "$0")/.."
export ESSH_TEST_SERVERS=${ESSH_TEST_SERVERS:-$PWD/.test-servers/servers.env}
[ -f "$ESSH_TEST_SERVERS" ] || { echo "bench-session-shell: the test servers are not running" >&2; exit 1; }
date=${BENCH_DATE:-$(date -u +%Y-%m-%d)}
out=bench/results/session-shell-$date.md
work=bench/work/session-shell
mkdir -p "$work" bench/results
runs=${BENCH_RUNS:-200}
PKG_CONFIG_PATH=$(Sources/CLibSSH2/libssh2-from-debian.sh pkg-config-path)
export PKG_CONFIG_PATH
swift build --build-tests > "$work/build.log" 2>&1 || { tail -20 "$work/build.log" >&2; exit 1; }
export ESSH=${ESSH:-$PWD/.build/debug/essh}
repeats=${BENCH_REPEATS:-3}
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for r in $(seq 1 "$repeats"); do
    ESSH_BENCH_SHELL=$work/true-$r.txt ESSH_BENCH_ROUNDS=$runs ESSH_BENCH_COMMAND=true LANG=C.UTF-8 \
        swift test --skip-build --filter SessionShellBenchmark > "$work/test.log" 2>&1 \
        || { tail -20 "$work/test.log" >&2; exit 1; }
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
# shellcheck disable=SC1090
. "$ESSH_TEST_SERVERS"
login_shell=$(getent passwd "$ESSH_TEST_USER" | cut -d: -f7)

python3 - "$work" "$out" "$runs" "$load_before" "$load_after" "$login_shell" "$repeats" <<'PY'
import statistics, subprocess, sys
work, out, runs, before, after, login, repeats = sys.argv[1:]
samples, per_run = {}, []
for r in range(1, int(repeats) + 1):
    these = {}
    for line in open(f"{work}/true-{r}.txt"):
        kind, seconds = line.split()
        these.setdefault(kind, []).append(float(seconds) * 1000)
        samples.setdefault(kind, []).append(float(seconds) * 1000)
    per_run.append(these)
def q(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))]
def row(kind, source=None, label=None):
    v = (source or samples)[kind]
    return f"| {label or kind} | {len(v)} | {statistics.median(v):.2f} | {q(v, 0.1):.2f} | {q(v, 0.9):.2f} | {statistics.mean(v):.2f} | {max(v):.2f} |"
runs_rows = "\n".join(
    row(kind, these, f"run {i + 1}: {kind}") for i, these in enumerate(per_run) for kind in ("persistent", "exec"))
ratios = ", ".join(f"{statistics.median(t['persistent']) / statistics.median(t['exec']):.2f}" for t in per_run)
machine_lines = []
for line in subprocess.run(["bash", "bench/machine.sh"], capture_output=True, text=True).stdout.splitlines():
    if line.startswith("- ") or not machine_lines: machine_lines.append(line)
    else: machine_lines[-1] += "; " + line.strip()
machine = "\n".join(machine_lines)
sshd = subprocess.run(["ssh", "-V"], capture_output=True, text=True).stderr.strip()
bash = subprocess.run(["bash", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
persistent, exec_ = statistics.median(samples["persistent"]), statistics.median(samples["exec"])
text = f"""# The session's persistent shell against a channel per command (issue 14 §1)

{machine}
- build: debug (`swift build --build-tests`; the client's share of a command is small beside the round trips)
- server: the harness's OpenSSH sshd on 127.0.0.1 (Tests/Harness/test-servers.sh), {sshd}
- the test user's login shell: {login}, {bash}; the persistent shell is `bash --norc --noprofile --noediting -i`
- load average (1, 5, 15 min): before {before}, after {after}

## Commands

```
bash bench/bench-session-shell.sh          # BENCH_RUNS={runs} BENCH_REPEATS={repeats}
# = for each run R: ESSH_BENCH_SHELL=bench/work/session-shell/true-R.txt ESSH_BENCH_ROUNDS={runs} \\
#   ESSH_BENCH_COMMAND=true swift test --skip-build --filter SessionShellBenchmark
```

{repeats} runs of the benchmark, each on one SSH session: {runs} rounds, each running `true` once in the persistent shell (`SessionShell.run`) and once on a
new channel (`SSHSession.run`, what every interface command did before), the order alternating per round, after 10
warm-up rounds. Each figure is the time from the call to its return, output callback included. `start` is opening
the shell (channel, exec of the bootstrap, the probe's answer), 20 times on the same session.

## Figures (milliseconds)

| way | n | median | p10 | p90 | mean | max |
| --- | --- | --- | --- | --- | --- | --- |
{row("persistent", label="all runs: persistent")}
{row("exec", label="all runs: exec")}
{row("start", label="all runs: start")}
{runs_rows}

Per-command overhead, median of all runs: persistent shell {persistent:.2f} ms, channel per command {exec_:.2f} ms:
the persistent shell takes **{persistent / exec_:.2f}×** the time of a channel per command
({exec_ / persistent:.1f} times faster); per run: {ratios}. The machine is shared with other builds (see the load
average): the channel per command, which makes the server fork a session process and a login shell, suffers from the
load far more than a line to a waiting shell. Starting the shell costs about {statistics.median(samples["start"]):.1f} ms once
per session (the first command waits for it only when typed within that time of connecting).
"""
open(out, "w").write(text)
print(text)
PY
