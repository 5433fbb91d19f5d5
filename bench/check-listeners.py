#!/usr/bin/env python3
"""Listeners for bench-check.sh, run inside a private network namespace (one epoll loop, no threads).

    check-listeners.py PORT COUNT

For i in 0..COUNT-1, with address(prefix, i) = 127.prefix.(i // 250).(i % 250 + 1):
  127.1.*  accepts and writes an SSH identification line, then closes   -> online
  127.2.*  nothing listens                                              -> refused
  127.3.*  listens with backlog 0, never accepts, queue filled first     -> timeout (SYNs dropped)
Prints "ready" on stdout when every listener is up and every silent queue is full, then serves until killed.
"""
import errno
import select
import socket
import sys
import time

BANNER = b"SSH-2.0-OpenSSH_9.2p1 essh-bench\r\n"


def address(prefix, i):
    return "127.%d.%d.%d" % (prefix, i // 250, i % 250 + 1)


def main():
    port, count = int(sys.argv[1]), int(sys.argv[2])
    poller = select.epoll()
    listeners = {}
    for i in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((address(1, i), port))
        s.listen(128)
        s.setblocking(False)
        poller.register(s.fileno(), select.EPOLLIN)
        listeners[s.fileno()] = s
    silent, fillers = [], []
    for i in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((address(3, i), port))
        s.listen(0)
        silent.append(s)
        for _ in range(2):
            c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            c.setblocking(False)
            err = c.connect_ex((address(3, i), port))
            if err not in (0, errno.EINPROGRESS):
                sys.exit("filler connect to %s failed: %s" % (address(3, i), errno.errorcode.get(err)))
            fillers.append(c)
    time.sleep(0.3)  # let the first filler of each silent listener complete its handshake
    print("ready", flush=True)
    while True:
        for fd, _ in poller.poll():
            s = listeners[fd]
            while True:
                try:
                    conn, _ = s.accept()
                except BlockingIOError:
                    break
                try:
                    conn.send(BANNER)
                except OSError:
                    pass
                conn.close()


if __name__ == "__main__":
    main()
