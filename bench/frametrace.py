"""ESSH_FRAME_TRACE, read: the interface writes one line per frame drawn, `START_NS END_NS CHANGED` (CHANGED is 1
when any cell changed). Shared by bench/tui-bench.py and bench/team-bench.py."""
import os


def frames(trace):
    """The frames traced so far as (start ns, end ns, changed), oldest first; none before the file exists."""
    out = []
    if os.path.exists(trace):
        with open(trace) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3:
                    out.append((int(parts[0]), int(parts[1]), parts[2] == "1"))
    return out
