#!/usr/bin/env python3
"""Times commands round-robin and writes hyperfine-style JSON.

    interleaved.py --runs N [--warmup W] --export-json FILE NAME COMMAND [NAME COMMAND ...]

Each round runs every command once, starting one later each round (A B C, B C A, C A B, ...), so a change in the
machine's load falls on every command alike; hyperfine runs all of one command's runs, then the next command's, and on a
busy machine the ratio then measures the load's drift as much as the programs. Like `hyperfine -N`: no shell (the
command line is split with shlex), stdin and stdout are /dev/null, stderr is kept for failures. Wall time from
perf_counter, user and system time of the command's process from wait4's rusage. The JSON has hyperfine's fields
(command, mean, stddev, median, min, max, user, system, times), one entry per command, so readers of hyperfine's
output read it unchanged.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv):
    """Wall seconds, user and system seconds of one run (the child's CPU: os.times() counts reaped children)."""
    with open(os.devnull, "rb") as stdin, open(os.devnull, "wb") as stdout:
        before = os.times()
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE)
        _, err = proc.communicate()
        wall = time.perf_counter() - start
        after = os.times()
    if proc.returncode != 0:
        sys.exit(f"interleaved: '{shlex.join(argv)}' failed ({proc.returncode}): {err.decode(errors='replace')[-500:]}")
    return wall, after.children_user - before.children_user, after.children_system - before.children_system


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--warmup", type=int, default=1)
    parser.add_argument("--export-json", required=True)
    parser.add_argument("pairs", nargs="+")
    args = parser.parse_args()
    if len(args.pairs) % 2:
        sys.exit("interleaved: give NAME COMMAND pairs")
    names, commands = args.pairs[0::2], [shlex.split(c) for c in args.pairs[1::2]]
    times = {n: [] for n in names}
    users = {n: [] for n in names}
    systems = {n: [] for n in names}
    for round_ in range(args.warmup + args.runs):
        k = round_ % len(names)
        for i in list(range(k, len(names))) + list(range(0, k)):
            wall, user, system = run_once(commands[i])
            if round_ >= args.warmup:
                times[names[i]].append(wall)
                users[names[i]].append(user)
                systems[names[i]].append(system)
    results = []
    for n, argv in zip(names, args.pairs[1::2]):
        t = times[n]
        results.append({
            "command": n, "command_line": argv, "mean": statistics.mean(t),
            "stddev": statistics.stdev(t) if len(t) > 1 else 0.0, "median": statistics.median(t),
            "min": min(t), "max": max(t), "user": statistics.mean(users[n]), "system": statistics.mean(systems[n]),
            "times": t,
        })
    with open(args.export_json, "w") as f:
        json.dump({"results": results}, f, indent=1)
    for r in results:
        print(f"{r['command']}: mean {r['mean']*1000:.1f} ms ± {r['stddev']*1000:.1f}, median "
              f"{r['median']*1000:.1f} ms, min {r['min']*1000:.1f} ms, user {r['user']:.3f} s, "
              f"system {r['system']:.3f} s ({len(r['times'])} runs)")


if __name__ == "__main__":
    main()
