#!/usr/bin/env python3
"""Port forwarding, essh forward vs ssh -N -L, side by side in one run (issue 15 §4).

    forward-bench.py --rounds N --bytes B NAME 'TUNNEL COMMAND with {port} {target}' [NAME COMMAND ...]

Starts a source (sends B bytes on each connection, with sendfile, then closes) and an echo server on 127.0.0.1,
then every tunnel command (each listening on its own free local port and forwarding to the servers through the same
sshd), and runs rounds: in each round every tunnel, in a rotating order, carries (1) one download of B bytes and
(2) 1,000 request/response round trips of 64 bytes over one connection. Wall time per run is measured by the client;
the CPU time (user + system) of the tunnel process comes from /proc/PID/stat around each run. Prints a markdown
table of means and medians and the ratios against the first tunnel. Every download is checked for its length and
every echo for its bytes.
"""
import argparse
import os
import shlex
import socket
import statistics
import subprocess
import sys
import threading
import time

CLK = os.sysconf("SC_CLK_TCK")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def source_server(path, size):
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)

    def serve(c):
        try:
            with open(path, "rb") as f:
                c.sendfile(f, 0, size)
        except OSError:
            pass  # a probe connection (is it listening?) closed at once
        c.close()

    def loop():
        while True:
            c, _ = srv.accept()
            threading.Thread(target=serve, args=(c,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()
    return srv.getsockname()[1]


def echo_server():
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(64)

    def serve(c):
        c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            while True:
                d = c.recv(65536)
                if not d:
                    break
                c.sendall(d)
        except OSError:
            pass
        c.close()

    def loop():
        while True:
            c, _ = srv.accept()
            threading.Thread(target=serve, args=(c,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()
    return srv.getsockname()[1]


def cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def wait_listening(port, proc, seconds=20):
    end = time.time() + seconds
    while time.time() < end:
        if proc.poll() is not None:
            sys.exit(f"forward-bench: a tunnel exited: {proc.stderr.read().decode(errors='replace')[-500:]}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"forward-bench: nothing listens on {port}")


def download(port, size):
    c = socket.create_connection(("127.0.0.1", port))
    buf = bytearray(1 << 20)
    view = memoryview(buf)
    got = 0
    start = time.perf_counter()
    while True:
        n = c.recv_into(view)
        if n == 0:
            break
        got += n
    wall = time.perf_counter() - start
    c.close()
    if got != size:
        sys.exit(f"forward-bench: download through port {port} got {got} of {size} bytes")
    return wall


def round_trips(port, count=1000):
    c = socket.create_connection(("127.0.0.1", port))
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    message = os.urandom(64)
    # One exchange first: the channel is open before the clock starts.
    c.sendall(message)
    c.recv(64)
    start = time.perf_counter()
    for _ in range(count):
        c.sendall(message)
        got = b""
        while len(got) < 64:
            d = c.recv(64 - len(got))
            if not d:
                sys.exit("forward-bench: echo connection closed")
            got += d
        if got != message:
            sys.exit("forward-bench: echo returned other bytes")
    wall = time.perf_counter() - start
    c.close()
    return wall


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bytes", type=int, required=True)
    parser.add_argument("--file", required=True)
    parser.add_argument("tunnels", nargs="+")
    args = parser.parse_args()
    pairs = list(zip(args.tunnels[::2], args.tunnels[1::2]))
    source = source_server(args.file, args.bytes)
    echo = echo_server()
    running = []
    for name, template in pairs:
        ports = (free_port(), free_port())
        argv = shlex.split(template.format(source_port=ports[0], source=source, echo_port=ports[1], echo=echo))
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        running.append((name, argv, proc, ports))
    for name, argv, proc, ports in running:
        wait_listening(ports[0], proc)
        wait_listening(ports[1], proc)
        round_trips(ports[1], 10)
    results = {name: {"dl": [], "dl_cpu": [], "rt": [], "rt_cpu": []} for name, _, _, _ in running}
    for r in range(args.rounds):
        order = running[r % len(running):] + running[:r % len(running)]
        for name, argv, proc, ports in order:
            before = cpu(proc.pid)
            results[name]["dl"].append(download(ports[0], args.bytes))
            results[name]["dl_cpu"].append(cpu(proc.pid) - before)
            before = cpu(proc.pid)
            results[name]["rt"].append(round_trips(ports[1]))
            results[name]["rt_cpu"].append(cpu(proc.pid) - before)
    for _, _, proc, _ in running:
        proc.terminate()
        proc.wait(10)

    mb = args.bytes / 1e6
    print(f"### Throughput: {mb:.0f} MB through the tunnel ({args.rounds} runs each, interleaved)\n")
    print("| tunnel | mean s | median s | min s | MB/s (mean) | tunnel CPU s per run |")
    print("|---|---|---|---|---|---|")
    for name, _, _, _ in running:
        d = results[name]["dl"]
        print(f"| {name} | {statistics.mean(d):.3f} | {statistics.median(d):.3f} | {min(d):.3f} | "
              f"{mb / statistics.mean(d):.0f} | {statistics.mean(results[name]['dl_cpu']):.2f} |")
    print(f"\n### Latency: 1,000 round trips of 64 bytes over one connection ({args.rounds} runs each)\n")
    print("| tunnel | mean ms | median ms | min ms | µs per round trip (mean) | tunnel CPU s per run |")
    print("|---|---|---|---|---|---|")
    for name, _, _, _ in running:
        t = results[name]["rt"]
        print(f"| {name} | {statistics.mean(t) * 1000:.1f} | {statistics.median(t) * 1000:.1f} | "
              f"{min(t) * 1000:.1f} | {statistics.mean(t) * 1000:.0f} | {statistics.mean(results[name]['rt_cpu']):.2f} |")
    base = running[0][0]
    print("\n### Ratios (means; the first tunnel against each other)\n")
    for name, _, _, _ in running[1:]:
        throughput = statistics.mean(results[name]["dl"]) / statistics.mean(results[base]["dl"])
        latency = statistics.mean(results[base]["rt"]) / statistics.mean(results[name]["rt"])
        m_throughput = statistics.median(results[name]["dl"]) / statistics.median(results[base]["dl"])
        m_latency = statistics.median(results[base]["rt"]) / statistics.median(results[name]["rt"])
        print(f"- {base} vs {name}: throughput {throughput:.2f}× (medians {m_throughput:.2f}×; ≥ 1.0 is as fast "
              f"or faster), latency {latency:.2f}× of {name}'s time (medians {m_latency:.2f}×; ≤ 1.1 is the target)")


if __name__ == "__main__":
    main()
