#!/usr/bin/env python3
"""A hostile SSH/SFTP server for eSSH's tests (issue 27): a real SSH server (paramiko's transport) whose SFTP
answers come from a scenario, so a test can send names and attributes no honest server would: `/` or NUL bytes in
a name, `..`, an empty or 300-byte name, a folder listed twice, a folder holding itself forever, sizes that lie.

    hostile-sftp.py --scenario FILE --keys DIR --log FILE [--port N]

It binds 127.0.0.1 (port 0: one the kernel picks), accepts any user with any password or any public key, and
prints exactly one line on stdout once it listens:

    READY <port> [127.0.0.1]:<port> ssh-ed25519 AAAA...

(the rest after the port is the known_hosts line). Then it serves until killed, or until its stdin closes (so a
test runner that died leaves nothing running). The host key is DIR/ssh_host_ed25519_key, made with ssh-keygen
when missing. Every request is logged as one line to --log (appended, flushed at once):

    AUTH publickey user=u ssh-ed25519         SUBSYSTEM sftp          EXEC <command, escaped>
    INIT 3          REALPATH .               OPENDIR tree            READDIR tree
    STAT tree/ok.txt          LSTAT x        OPEN tree/ok.txt flags=0x1     READ tree/ok.txt offset=0 length=32768
    FSTAT tree/ok.txt         CLOSE tree/ok.txt       READLINK link        EXTENDED statvfs@openssh.com /
    WRITE p offset=0 length=N MKDIR p  RMDIR p  REMOVE p  RENAME old new  SETSTAT p  FSETSTAT p  SYMLINK a b

Paths are logged as the client sent them (a handle's calls name the path it was opened with), escaped so a line
stays one line: bytes 0x21-0x7e as themselves except `\\`, which is doubled; every other byte (space, NUL,
newline, non-ASCII) as `\\xNN`.

The scenario (JSON):

    {
      "home": "/home/hostile",      realpath(".") and where relative paths start; its parent folders exist
      "entries": [ENTRY, ...],      what the home folder holds, listed in this order
      "writable": false,            false: opening for write, mkdir, remove, rename, setstat are PERMISSION_DENIED;
                                    true: they work in memory (uploads land in the tree)
      "dots": true,                 listings start with "." and ".." as real servers' do
      "names_per_reply": 100,       names in one READDIR answer
      "max_read": null,             at most this many bytes in one DATA answer (short reads)
      "extensions": [],             advertised in VERSION: posix-rename@openssh.com, statvfs@openssh.com,
                                    fsync@openssh.com, hardlink@openssh.com (the others are OP_UNSUPPORTED)
      "owner": "hostile", "uid": 1000, "gid": 1000, "mtime": 1700000000
    }

An ENTRY:

    "type": "file" | "dir" | "symlink" | "fifo" | "socket" | "chardev" | "blockdev"
    "name": "text" or "name_b64": "base64 of the raw name bytes" (anything: "", "a/b", "..", NUL, 300 bytes)
    file:    "text": "..." | "base64": "..." | "size": N with "fill": a byte (int) or a text repeated (default 0),
             or "fill_b64" (bytes repeated); a filled file is made as it is read (a size of GiBs costs nothing)
    symlink: "target": "..." | "target_b64": "..."   (absolute targets start at "/", relative ones at the link's
             folder; followed by STAT, OPEN, OPENDIR and REALPATH and in the middle of any path)
    dir:     "entries": [ENTRY, ...], "loop": true (the folder also holds itself under its own name, listed after
             its entries: loop/loop/loop/... are all this folder, each at its own path)
    "mode": 0o644 as an int (permission bits; the type bits come from "type"), "uid", "gid", "mtime", "atime",
    "owner" (the ls -l line's owner), "longname" | "longname_b64" (the whole ls -l line instead)
    "attrs": {"size": N, "perm": full st_mode, "uid", "gid", "atime", "mtime"}: what every answer (STAT, LSTAT,
             FSTAT, READDIR) says instead of the truth; a null value leaves that field out of the answer
    "list_attrs": {...}: the same, for READDIR answers only (applied after "attrs")
    "realpath": "..." | "realpath_b64": what REALPATH answers for this entry, at whatever path it was reached
    "lookup": false: the entry is listed but no path finds it (by default, when a name is listed twice, a path
             finds the LAST entry of that name)
    "fail": {"stat": 3, "lstat": "permission_denied", "open": ..., "opendir": ..., "readdir": ..., "read": ...,
             "readlink": ..., "realpath": ..., "close": ...}: the status (a number or a name: eof, no_such_file,
             permission_denied, failure, bad_message, op_unsupported) those requests on this entry get;
             "fail_read_from": N: a "read" failure only from offset N on (earlier reads succeed)
    "read_chunk": N: this file's DATA answers hold at most N bytes
"""

import argparse
import base64
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import traceback

import paramiko

# SFTP v3 packet types and status codes.
INIT, VERSION, OPEN, CLOSE, READ, WRITE, LSTAT, FSTAT, SETSTAT, FSETSTAT = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
OPENDIR, READDIR, REMOVE, MKDIR, RMDIR, REALPATH, STAT, RENAME, READLINK, SYMLINK = range(11, 21)
STATUS, HANDLE, DATA, NAME, ATTRS, EXTENDED, EXTENDED_REPLY = 101, 102, 103, 104, 105, 200, 201
OK, EOF, NO_SUCH_FILE, PERMISSION_DENIED, FAILURE, BAD_MESSAGE, NO_CONNECTION, CONNECTION_LOST, OP_UNSUPPORTED = range(9)
STATUS_NAMES = {"ok": OK, "eof": EOF, "no_such_file": NO_SUCH_FILE, "permission_denied": PERMISSION_DENIED,
                "failure": FAILURE, "bad_message": BAD_MESSAGE, "no_connection": NO_CONNECTION,
                "connection_lost": CONNECTION_LOST, "op_unsupported": OP_UNSUPPORTED}
STATUS_WORDS = {OK: "Success", EOF: "End of file", NO_SUCH_FILE: "No such file", PERMISSION_DENIED: "Permission denied",
                FAILURE: "Failure", BAD_MESSAGE: "Bad message", OP_UNSUPPORTED: "Operation unsupported"}
A_SIZE, A_UIDGID, A_PERM, A_TIME = 0x1, 0x2, 0x4, 0x8
O_READ, O_WRITE, O_APPEND, O_CREAT, O_TRUNC, O_EXCL = 0x1, 0x2, 0x4, 0x8, 0x10, 0x20
TYPE_BITS = {"file": 0o100000, "dir": 0o040000, "symlink": 0o120000, "fifo": 0o010000, "socket": 0o140000,
             "chardev": 0o020000, "blockdev": 0o060000}
TYPE_LETTER = {"file": "-", "dir": "d", "symlink": "l", "fifo": "p", "socket": "s", "chardev": "c", "blockdev": "b"}
KNOWN_EXTENSIONS = ("posix-rename@openssh.com", "statvfs@openssh.com", "fsync@openssh.com", "hardlink@openssh.com")


class SFTPError(Exception):
    def __init__(self, code, words=None):
        super().__init__(code)
        self.code = code
        self.words = words or STATUS_WORDS.get(code, "Failure")


def escaped(data):
    """A byte string as one log word (see the module's doc)."""
    out = []
    for b in data:
        if b == 0x5C:
            out.append("\\\\")
        elif 0x21 <= b <= 0x7E:
            out.append(chr(b))
        else:
            out.append("\\x%02x" % b)
    return "".join(out)


def raw(spec, key, default=None):
    """`key` as text (UTF-8) or `key_b64` as base64, as bytes."""
    if spec.get(key + "_b64") is not None:
        return base64.b64decode(spec[key + "_b64"])
    if spec.get(key) is not None:
        return spec[key].encode("utf-8", "surrogateescape")
    return default


def status_code(value):
    if isinstance(value, int):
        return value
    return STATUS_NAMES[str(value).lower()]


class Node:
    """One entry of the virtual tree (a folder's entry list holds Nodes; a loop folder also holds itself)."""

    def __init__(self, spec, defaults):
        self.type = spec.get("type", "dir" if "entries" in spec else "file")
        if self.type not in TYPE_BITS:
            raise ValueError("unknown entry type %r" % self.type)
        self.name = raw(spec, "name", b"")
        self.mode = spec.get("mode", {"dir": 0o755, "symlink": 0o777}.get(self.type, 0o644))
        self.uid = spec.get("uid", defaults["uid"])
        self.gid = spec.get("gid", defaults["gid"])
        self.mtime = spec.get("mtime", defaults["mtime"])
        self.atime = spec.get("atime", self.mtime)
        self.owner = spec.get("owner", defaults["owner"])
        self.longname = raw(spec, "longname")
        self.attrs = spec.get("attrs") or {}
        self.list_attrs = spec.get("list_attrs") or {}
        self.realpath = raw(spec, "realpath")
        self.lookup = spec.get("lookup", True)
        self.fail = {k: status_code(v) for k, v in (spec.get("fail") or {}).items()}
        self.fail_read_from = spec.get("fail_read_from", 0)
        self.read_chunk = spec.get("read_chunk")
        self.loop = bool(spec.get("loop", False))
        self.target = raw(spec, "target", b"")
        self.entries = [Node(e, defaults) for e in spec.get("entries", [])] if self.type == "dir" else []
        # File content: bytes (bytearray once written to), or a (size, fill) generated on reading.
        self.content = None
        self.fill = None
        if self.type == "file":
            if spec.get("base64") is not None:
                self.content = bytearray(base64.b64decode(spec["base64"]))
            elif spec.get("text") is not None:
                self.content = bytearray(spec["text"].encode("utf-8"))
            elif spec.get("size") is not None:
                fill = spec.get("fill", 0)
                fill = bytes([fill]) if isinstance(fill, int) else fill.encode("utf-8")
                if spec.get("fill_b64") is not None:
                    fill = base64.b64decode(spec["fill_b64"])
                self.fill = (int(spec["size"]), fill or b"\0")
            else:
                self.content = bytearray()

    @classmethod
    def folder(cls, name, defaults):
        return cls({"type": "dir", "name_b64": base64.b64encode(name).decode()}, defaults)

    def size(self):
        if self.type == "file":
            return self.fill[0] if self.fill else len(self.content)
        if self.type == "symlink":
            return len(self.target)
        return 4096 if self.type == "dir" else 0

    def read(self, offset, length):
        if self.fill:
            size, pattern = self.fill
            end = min(size, offset + length)
            if offset >= end:
                return b""
            start = offset % len(pattern)
            reps = (end - offset + start) // len(pattern) + 1
            return (pattern * reps)[start:start + end - offset]
        return bytes(self.content[offset:offset + length])

    def writable_content(self):
        if self.fill:
            self.content = bytearray(self.read(0, self.fill[0]))
            self.fill = None
        return self.content

    def children(self):
        """What a listing shows, in order (a loop folder holds itself last)."""
        return self.entries + ([self] if self.loop else [])

    def child(self, name):
        for e in reversed(self.entries):
            if e.lookup and e.name == name:
                return e
        if self.loop and name == self.name:
            return self
        return None

    def true_attrs(self):
        return {"size": self.size(), "uid": self.uid, "gid": self.gid,
                "perm": TYPE_BITS[self.type] | (self.mode & 0o7777), "atime": self.atime, "mtime": self.mtime}

    def answer_attrs(self, listing=False):
        a = self.true_attrs()
        a.update(self.attrs)
        if listing:
            a.update(self.list_attrs)
        return a

    def ls_line(self, name, attrs):
        if self.longname is not None:
            return self.longname
        perm = attrs.get("perm")
        perm = perm if perm is not None else 0
        kind = {v: k for k, v in TYPE_BITS.items()}.get(perm & 0o170000, "file")
        bits = "".join(c if perm & (1 << (8 - i)) else "-" for i, c in enumerate("rwxrwxrwx"))
        size = attrs.get("size")
        head = "%s%s %4d %-8s %-8s %8d Nov 14 22:13 " % (TYPE_LETTER[kind], bits, 1, self.owner, self.owner,
                                                         size if size is not None else 0)
        return head.encode() + name


def pack_attrs(a):
    flags, body = 0, b""
    if a.get("size") is not None:
        flags |= A_SIZE
        body += struct.pack(">Q", a["size"] & 0xFFFFFFFFFFFFFFFF)
    if a.get("uid") is not None and a.get("gid") is not None:
        flags |= A_UIDGID
        body += struct.pack(">II", a["uid"] & 0xFFFFFFFF, a["gid"] & 0xFFFFFFFF)
    if a.get("perm") is not None:
        flags |= A_PERM
        body += struct.pack(">I", a["perm"] & 0xFFFFFFFF)
    if a.get("atime") is not None and a.get("mtime") is not None:
        flags |= A_TIME
        body += struct.pack(">II", a["atime"] & 0xFFFFFFFF, a["mtime"] & 0xFFFFFFFF)
    return struct.pack(">I", flags) + body


class Reader:
    def __init__(self, data):
        self.data, self.at = data, 0

    def take(self, n):
        if self.at + n > len(self.data):
            raise SFTPError(BAD_MESSAGE)
        out = self.data[self.at:self.at + n]
        self.at += n
        return out

    def u8(self):
        return self.take(1)[0]

    def u32(self):
        return struct.unpack(">I", self.take(4))[0]

    def u64(self):
        return struct.unpack(">Q", self.take(8))[0]

    def string(self):
        return self.take(self.u32())

    def attrs(self):
        flags, a = self.u32(), {}
        if flags & A_SIZE:
            a["size"] = self.u64()
        if flags & A_UIDGID:
            a["uid"], a["gid"] = self.u32(), self.u32()
        if flags & A_PERM:
            a["perm"] = self.u32()
        if flags & A_TIME:
            a["atime"], a["mtime"] = self.u32(), self.u32()
        if flags & 0x80000000:
            for _ in range(self.u32()):
                self.string()
                self.string()
        return a


def s(data):
    return struct.pack(">I", len(data)) + data


class Tree:
    """The scenario's file system: "/" down to home synthesized, home holding the scenario's entries."""

    def __init__(self, scenario):
        d = {"uid": scenario.get("uid", 1000), "gid": scenario.get("gid", 1000),
             "mtime": scenario.get("mtime", 1700000000), "owner": scenario.get("owner", "hostile")}
        self.defaults = d
        self.lock = threading.RLock()
        self.home_path = raw(scenario, "home", b"/home/hostile")
        if not self.home_path.startswith(b"/"):
            raise ValueError("home must be absolute")
        self.home_parts = [p for p in self.home_path.split(b"/") if p]
        self.root = Node.folder(b"", d)
        at = self.root
        for part in self.home_parts:
            nxt = Node.folder(part, d)
            at.entries.append(nxt)
            at = nxt
        at.entries = [Node(e, d) for e in scenario.get("entries", [])]
        self.writable = bool(scenario.get("writable", False))
        self.dots = bool(scenario.get("dots", True))
        self.names_per_reply = max(1, int(scenario.get("names_per_reply", 100)))
        self.max_read = scenario.get("max_read")
        self.extensions = [e for e in scenario.get("extensions", []) if e in KNOWN_EXTENSIONS]

    def walk(self, path, follow_last=True):
        """The node at `path` and its path as a list of (name, node) from "/" down: raises SFTPError when missing.
        A symlink in the middle (or at the end with follow_last) is followed; 40 links at most."""
        start = [] if path.startswith(b"/") else self.home_stack()
        stack = list(start)
        parts = [p for p in path.split(b"/")]
        hops = 0
        i = 0
        while i < len(parts):
            part = parts[i]
            last = i == len(parts) - 1
            i += 1
            if part in (b"", b"."):
                continue
            if part == b"..":
                if stack:
                    stack.pop()
                continue
            here = stack[-1][1] if stack else self.root
            if here.type != "dir":
                raise SFTPError(NO_SUCH_FILE)
            node = here.child(part)
            if node is None:
                raise SFTPError(NO_SUCH_FILE)
            if node.type == "symlink" and (not last or follow_last):
                hops += 1
                if hops > 40:
                    raise SFTPError(FAILURE, "Too many levels of symbolic links")
                if node.target.startswith(b"/"):
                    stack = []
                parts = node.target.split(b"/") + parts[i:]
                i = 0
                continue
            stack.append((part, node))
        return (stack[-1][1] if stack else self.root), stack

    def home_stack(self):
        stack, at = [], self.root
        for part in self.home_parts:
            at = at.child(part)
            stack.append((part, at))
        return stack

    @staticmethod
    def joined(stack):
        return b"/" + b"/".join(name for name, _ in stack)

    def parent_and_name(self, path):
        """The folder that would hold `path` and the last name (for creating)."""
        head, _, name = path.rstrip(b"/").rpartition(b"/")
        if not name or name in (b".", b".."):
            raise SFTPError(FAILURE)
        if path.startswith(b"/") and not head:
            head = b"/"
        folder, _ = self.walk(head or b".")
        if folder.type != "dir":
            raise SFTPError(NO_SUCH_FILE)
        return folder, name


class Log:
    def __init__(self, path):
        self.file = open(path, "a", buffering=1, encoding="utf-8")
        self.lock = threading.Lock()

    def __call__(self, *words):
        line = " ".join(w if isinstance(w, str) else escaped(w) for w in words)
        with self.lock:
            self.file.write(line + "\n")
            self.file.flush()


class Handle:
    def __init__(self, path, node, folder_names=None, flags=0):
        self.path, self.node, self.names, self.flags = path, node, folder_names, flags
        self.listed = False


class SFTPHandler(paramiko.SubsystemHandler):
    """SFTP version 3, written out here (not paramiko's SFTPServer) so every byte of every answer is the scenario's."""

    def __init__(self, channel, name, server, tree, log):
        super().__init__(channel, name, server)
        self.tree, self.log, self.channel = tree, log, channel
        self.handles, self.next_handle = {}, 0
        self.outbox = []

    def start_subsystem(self, name, transport, channel):
        try:
            while transport.is_active():
                head = self.recv_exactly(4)
                if head is None:
                    return
                body = self.recv_exactly(struct.unpack(">I", head)[0])
                if body is None:
                    return
                self.handle_packet(body)
        except Exception:
            self.log("ERROR", traceback.format_exc().replace("\n", " | "))

    def recv_exactly(self, n):
        out = b""
        while len(out) < n:
            chunk = self.channel.recv(n - len(out))
            if not chunk:
                return None
            out += chunk
        return out

    def send(self, kind, payload):
        """Queues an answer: `flush` sends it once the tree's lock is released, so a channel whose window is full
        never keeps the other channels (a copy's lanes) waiting."""
        packet = bytes([kind]) + payload
        self.outbox.append(struct.pack(">I", len(packet)) + packet)

    def flush(self):
        out, self.outbox = b"".join(self.outbox), []
        if out:
            self.channel.sendall(out)

    def status(self, rid, code, words=None):
        self.send(STATUS, struct.pack(">II", rid, code) + s((words or STATUS_WORDS.get(code, "Failure")).encode())
                  + s(b"en"))

    def handle_packet(self, body):
        r = Reader(body)
        kind = r.u8()
        if kind == INIT:
            version = r.u32()
            self.log("INIT", str(version))
            ext = b"".join(s(e.encode()) + s(b"2" if e == "statvfs@openssh.com" else b"1")
                           for e in self.tree.extensions)
            self.send(VERSION, struct.pack(">I", 3) + ext)
            self.flush()
            return
        rid = r.u32()
        try:
            with self.tree.lock:
                self.dispatch(kind, rid, r)
        except SFTPError as e:
            self.status(rid, e.code, e.words)
        self.flush()

    def new_handle(self, h):
        self.next_handle += 1
        key = b"h%d" % self.next_handle
        self.handles[key] = h
        return key

    def handle_of(self, r):
        h = self.handles.get(r.string())
        if h is None:
            raise SFTPError(FAILURE, "Invalid handle")
        return h

    def check(self, node, op):
        if op in node.fail:
            raise SFTPError(node.fail[op])

    def refuse_writes(self):
        if not self.tree.writable:
            raise SFTPError(PERMISSION_DENIED)

    def dispatch(self, kind, rid, r):
        tree = self.tree
        if kind == REALPATH:
            path = r.string()
            self.log("REALPATH", path)
            node, stack = tree.walk(path if path else b".")
            self.check(node, "realpath")
            answer = node.realpath if node.realpath is not None else Tree.joined(stack)
            attrs = pack_attrs({})
            self.send(NAME, struct.pack(">II", rid, 1) + s(answer) + s(answer) + attrs)
        elif kind in (STAT, LSTAT):
            path = r.string()
            self.log("STAT" if kind == STAT else "LSTAT", path)
            node, _ = tree.walk(path, follow_last=kind == STAT)
            self.check(node, "stat" if kind == STAT else "lstat")
            self.send(ATTRS, struct.pack(">I", rid) + pack_attrs(node.answer_attrs()))
        elif kind == OPENDIR:
            path = r.string()
            self.log("OPENDIR", path)
            node, _ = tree.walk(path)
            if node.type != "dir":
                raise SFTPError(NO_SUCH_FILE, "Not a directory")
            self.check(node, "opendir")
            names = []
            if tree.dots:
                names += [(b".", node), (b"..", node)]
            names += [(e.name, e) for e in node.children()]
            self.send(HANDLE, struct.pack(">I", rid) + s(self.new_handle(Handle(path, node, names))))
        elif kind == READDIR:
            h = self.handle_of(r)
            self.log("READDIR", h.path)
            if h.names is None:
                raise SFTPError(FAILURE)
            if not h.listed:
                h.listed = True
                self.check(h.node, "readdir")
            if not h.names:
                raise SFTPError(EOF)
            batch, h.names = h.names[:tree.names_per_reply], h.names[tree.names_per_reply:]
            out = struct.pack(">II", rid, len(batch))
            for name, node in batch:
                a = node.answer_attrs(listing=True)
                out += s(name) + s(node.ls_line(name, a)) + pack_attrs(a)
            self.send(NAME, out)
        elif kind == OPEN:
            path, flags = r.string(), r.u32()
            attrs = r.attrs()
            self.log("OPEN", path, "flags=0x%x" % flags)
            if flags & (O_WRITE | O_APPEND | O_CREAT | O_TRUNC):
                self.refuse_writes()
                try:
                    node, _ = tree.walk(path)
                    if flags & O_EXCL and flags & O_CREAT:
                        raise SFTPError(FAILURE, "File exists")
                except SFTPError as e:
                    if e.code != NO_SUCH_FILE or not flags & O_CREAT:
                        raise
                    folder, name = tree.parent_and_name(path)
                    node = Node({"type": "file", "name_b64": base64.b64encode(name).decode(),
                                 "mode": attrs.get("perm", 0o644) & 0o7777}, tree.defaults)
                    folder.entries.append(node)
                if node.type != "file":
                    raise SFTPError(FAILURE, "Not a regular file")
                if flags & O_TRUNC:
                    node.writable_content()[:] = b""
            else:
                node, _ = tree.walk(path)
                if node.type == "dir":
                    raise SFTPError(FAILURE, "Is a directory")
                if node.type != "file":
                    raise SFTPError(FAILURE, "Not a regular file")
            self.check(node, "open")
            self.send(HANDLE, struct.pack(">I", rid) + s(self.new_handle(Handle(path, node, flags=flags))))
        elif kind == READ:
            h = self.handle_of(r)
            offset, length = r.u64(), r.u32()
            self.log("READ", h.path, "offset=%d" % offset, "length=%d" % length)
            node = h.node
            if node.type != "file":
                raise SFTPError(FAILURE)
            if "read" in node.fail and offset + length > node.fail_read_from:
                if offset >= node.fail_read_from:
                    raise SFTPError(node.fail["read"])
                length = node.fail_read_from - offset
            for limit in (node.read_chunk, tree.max_read):
                if limit:
                    length = min(length, int(limit))
            data = node.read(offset, length)
            if not data:
                raise SFTPError(EOF)
            self.send(DATA, struct.pack(">I", rid) + s(data))
        elif kind == WRITE:
            h = self.handle_of(r)
            offset, data = r.u64(), r.string()
            self.log("WRITE", h.path, "offset=%d" % offset, "length=%d" % len(data))
            if not h.flags & (O_WRITE | O_APPEND):
                raise SFTPError(PERMISSION_DENIED)
            content = h.node.writable_content()
            if h.flags & O_APPEND:
                offset = len(content)
            if len(content) < offset:
                content.extend(b"\0" * (offset - len(content)))
            content[offset:offset + len(data)] = data
            self.status(rid, OK)
        elif kind == FSTAT:
            h = self.handle_of(r)
            self.log("FSTAT", h.path)
            self.check(h.node, "stat")
            self.send(ATTRS, struct.pack(">I", rid) + pack_attrs(h.node.answer_attrs()))
        elif kind == CLOSE:
            key = r.string()
            h = self.handles.pop(key, None)
            if h is None:
                self.log("CLOSE", key)
                raise SFTPError(FAILURE, "Invalid handle")
            self.log("CLOSE", h.path)
            self.check(h.node, "close")
            self.status(rid, OK)
        elif kind == READLINK:
            path = r.string()
            self.log("READLINK", path)
            node, _ = tree.walk(path, follow_last=False)
            self.check(node, "readlink")
            if node.type != "symlink":
                raise SFTPError(FAILURE, "Invalid argument")
            self.send(NAME, struct.pack(">II", rid, 1) + s(node.target) + s(node.target) + pack_attrs({}))
        elif kind in (SETSTAT, FSETSTAT):
            if kind == SETSTAT:
                path = r.string()
                self.log("SETSTAT", path)
                node, _ = tree.walk(path)
            else:
                h = self.handle_of(r)
                self.log("FSETSTAT", h.path)
                node = h.node
            a = r.attrs()
            self.refuse_writes()
            if "perm" in a:
                node.mode = a["perm"] & 0o7777
            if "mtime" in a:
                node.atime, node.mtime = a["atime"], a["mtime"]
            if "size" in a and node.type == "file":
                c = node.writable_content()
                del c[a["size"]:]
                c.extend(b"\0" * (a["size"] - len(c)))
            self.status(rid, OK)
        elif kind == MKDIR:
            path = r.string()
            r.attrs()
            self.log("MKDIR", path)
            self.refuse_writes()
            folder, name = tree.parent_and_name(path)
            if folder.child(name) is not None:
                raise SFTPError(FAILURE, "File exists")
            folder.entries.append(Node({"type": "dir", "name_b64": base64.b64encode(name).decode()}, tree.defaults))
            self.status(rid, OK)
        elif kind in (REMOVE, RMDIR):
            path = r.string()
            self.log("REMOVE" if kind == REMOVE else "RMDIR", path)
            self.refuse_writes()
            folder, name = tree.parent_and_name(path)
            node = folder.child(name)
            if node is None:
                raise SFTPError(NO_SUCH_FILE)
            if kind == REMOVE and node.type == "dir":
                raise SFTPError(FAILURE, "Is a directory")
            if kind == RMDIR and (node.type != "dir" or node.children()):
                raise SFTPError(FAILURE, "Not an empty directory")
            folder.entries.remove(node)
            self.status(rid, OK)
        elif kind == RENAME:
            old, new = r.string(), r.string()
            self.log("RENAME", old, new)
            self.rename(old, new, replace=False)
            self.status(rid, OK)
        elif kind == SYMLINK:
            # OpenSSH's sftp-server (and libssh2) send target first, then the link's path.
            target, link = r.string(), r.string()
            self.log("SYMLINK", target, link)
            self.refuse_writes()
            folder, name = tree.parent_and_name(link)
            if folder.child(name) is not None:
                raise SFTPError(FAILURE, "File exists")
            folder.entries.append(Node({"type": "symlink", "name_b64": base64.b64encode(name).decode(),
                                        "target_b64": base64.b64encode(target).decode()}, tree.defaults))
            self.status(rid, OK)
        elif kind == EXTENDED:
            request = r.string().decode("utf-8", "replace")
            if request not in tree.extensions:
                self.log("EXTENDED", request)
                raise SFTPError(OP_UNSUPPORTED)
            if request == "posix-rename@openssh.com":
                old, new = r.string(), r.string()
                self.log("EXTENDED", request, old, new)
                self.rename(old, new, replace=True)
                self.status(rid, OK)
            elif request == "statvfs@openssh.com":
                path = r.string()
                self.log("EXTENDED", request, path)
                tree.walk(path)
                self.send(EXTENDED_REPLY, struct.pack(">I", rid) +
                          struct.pack(">QQQQQQQQQQQ", 4096, 4096, 1 << 30, 1 << 29, 1 << 29, 1 << 20, 1 << 19,
                                      1 << 19, 0x1234, 0, 255))
            elif request == "fsync@openssh.com":
                h = self.handle_of(r)
                self.log("EXTENDED", request, h.path)
                self.status(rid, OK)
            else:
                old, new = r.string(), r.string()
                self.log("EXTENDED", request, old, new)
                raise SFTPError(OP_UNSUPPORTED)
        else:
            self.log("UNKNOWN", str(kind))
            raise SFTPError(OP_UNSUPPORTED)

    def rename(self, old, new, replace):
        self.refuse_writes()
        folder, name = self.tree.parent_and_name(old)
        node = folder.child(name)
        if node is None:
            raise SFTPError(NO_SUCH_FILE)
        to_folder, to_name = self.tree.parent_and_name(new)
        existing = to_folder.child(to_name)
        if existing is not None:
            if not replace:
                raise SFTPError(FAILURE, "File exists")
            to_folder.entries.remove(existing)
        folder.entries.remove(node)
        node.name = to_name
        to_folder.entries.append(node)


class Server(paramiko.ServerInterface):
    """Anyone in: any user, any password, any public key (paramiko checks the key's signature itself)."""

    def __init__(self, log):
        self.log = log

    def get_allowed_auths(self, username):
        return "publickey,password"

    def check_auth_none(self, username):
        return paramiko.AUTH_FAILED

    def check_auth_password(self, username, password):
        self.log("AUTH", "password", "user=" + escaped(username.encode("utf-8", "surrogateescape")))
        return paramiko.AUTH_SUCCESSFUL

    def check_auth_publickey(self, username, key):
        self.log("AUTH", "publickey", "user=" + escaped(username.encode("utf-8", "surrogateescape")),
                 key.get_name())
        return paramiko.AUTH_SUCCESSFUL

    def check_channel_request(self, kind, chanid):
        return paramiko.OPEN_SUCCEEDED if kind == "session" else paramiko.OPEN_FAILED_ADMINISTRATIVELY_PROHIBITED

    def check_channel_subsystem_request(self, channel, name):
        self.log("SUBSYSTEM", name)
        return super().check_channel_subsystem_request(channel, name)

    def check_channel_exec_request(self, channel, command):
        # No commands run here: a sha256 check (essh cp --checksum) sees its exec refused.
        self.log("EXEC", bytes(command))
        return False

    def check_channel_shell_request(self, channel):
        self.log("SHELL")
        return False

    def check_channel_pty_request(self, *args):
        return False

    def check_channel_env_request(self, channel, name, value):
        return False


def serve_connection(sock, host_key, tree, log):
    try:
        transport = paramiko.Transport(sock)
        transport.add_server_key(host_key)
        transport.set_subsystem_handler("sftp", SFTPHandler, tree, log)
        transport.start_server(server=Server(log))
        # Channels are served by their subsystem handler; accepting only drains the queue. They are kept: paramiko
        # closes a channel when its object is collected.
        channels = []
        while transport.is_active():
            channel = transport.accept(1)
            if channel is not None:
                channels = [c for c in channels if not c.closed] + [channel]
    except Exception as e:
        log("CONNECTION-ERROR", repr(e).replace("\n", " "))


def host_key(folder):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "ssh_host_ed25519_key")
    if not os.path.exists(path):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "hostile-sftp", "-f", path],
                       check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    return paramiko.Ed25519Key.from_private_key_file(path)


def exit_when_stdin_closes():
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)


def main():
    p = argparse.ArgumentParser(description="A scriptable hostile SSH/SFTP server for tests.")
    p.add_argument("--scenario", required=True)
    p.add_argument("--keys", required=True, help="folder of the host key (made when missing)")
    p.add_argument("--log", required=True, help="file every request is logged to, one line each")
    p.add_argument("--port", type=int, default=0)
    args = p.parse_args()
    with open(args.scenario, encoding="utf-8") as f:
        tree = Tree(json.load(f))
    key = host_key(args.keys)
    log = Log(args.log)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(64)
    port = listener.getsockname()[1]
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    sys.stdout.write("READY %d [127.0.0.1]:%d %s %s\n" % (port, port, key.get_name(), key.get_base64()))
    sys.stdout.flush()
    while True:
        sock, _ = listener.accept()
        threading.Thread(target=serve_connection, args=(sock, key, tree, log), daemon=True).start()


if __name__ == "__main__":
    main()
