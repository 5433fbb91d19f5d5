#!/usr/bin/env python3
"""A hostile SSH server for libssh2's client, one connection, one case.

    hostile-ssh-server.py CASE

Binds 127.0.0.1 port 0, prints "PORT n" on stdout, accepts one connection, plays CASE, and closes. Everything is
written here from RFC 4253/4419/5656/8308/8731 and OpenSSH's PROTOCOL.chacha20poly1305 on the `cryptography` package
(no SSH library), so each case can send exactly the bytes a bug needs, before, during or after the key exchange.
The key exchange is real (curve25519-sha256, diffie-hellman-group14-sha256, diffie-hellman-group-exchange-sha256; an
ssh-ed25519 host key made per run; aes128-ctr + hmac-sha2-256 or chacha20-poly1305@openssh.com), so the control
cases ("ok-…") complete a handshake: a case that libssh2 refuses is refused for what it sends, not for a broken
server. Every wait has a deadline (DEADLINE seconds for the whole connection).

Cases (upstream libssh2 fix each one exercises):
  ok-curve25519, ok-chacha, ok-dh14, ok-gex   controls: a correct server; the client must complete the handshake
  exchange-keys-null      631e2f82  KEXINIT whose only kex method is the pseudo-method "ext-info-c"
  kexinit-no-lang         4d60ec37  KEXINIT that ends after comp_s2c (no languages), then the boolean and reserved
  service-accept-short    ce2a7b80  a 5-byte SERVICE_ACCEPT (type + length 12, no name), padding 0, sent in the
                                    clear before the key exchange; libssh2 queues it and reads it after the exchange
  chacha-short-length     15257c08  after NEWKEYS, an authentic chacha20-poly1305 packet whose length field is 1
  bad-signature           34b45a08  the exchange hash signed wrongly: the exchange fails after the host key is parsed
  dh-f-one                fcf83078  group14: the server's public value f = 1 (shared secret 1), correctly signed
  gex-small-prime         fe907ca4  group exchange: a 1024-bit group (RFC 2409 group 2) below libssh2's 2048 minimum
  ext-info-count          fe907ca4  EXT_INFO claiming 100000 extensions and carrying one
  ok-etm                            control: aes128-ctr with hmac-sha2-256-etm@openssh.com
  etm-padding-too-long    18c3a345  after NEWKEYS (encrypt-then-MAC), an authentic packet whose padding length
                                    (255) exceeds the packet (16 bytes)
  etm-short-packet        42e33d81  (Debian's CVE-2026-66035) after NEWKEYS (encrypt-then-MAC), an authentic packet
                                    of 8 bytes, less than the cipher's 16-byte block
  ok-exec                           control for the session cases: login "none", exec, data, exit-status 0
  window-adjust-wrap      a0057aef  a channel opened with a window of 2^32 - 256, then a window adjustment of 512
  exit-signal-short-name  590cdfe7  exit-signal whose name claims 100 bytes, 4 present
  exit-signal-twice       0a17ea04  two exit-signal requests on one channel (the first name leaked)
  ok-sftp                           control for the SFTP cases: login, sftp subsystem, a listing of one name
  ignored-stderr-eagain   bf7fa4c1  stderr on a channel whose client ignores it, then the server stops reading, so
                                    the client's window adjustment for it blocks (EAGAIN)
  sftp-readdir-huge       e3379a5c  a READDIR answered by a NAME header announcing 4 GiB - 256 bytes
  sftp-long-FUNCTION      ff50682c  a correct SFTP server (as ok-sftp); the hostile input is the driver's own call of
                                    FUNCTION with a name length of 4 GiB - 3, which libssh2 must refuse unsent
  userauth-kbd-long       66d73ffe  a correct server answering every login with a failure (as the key cases); the
                                    hostile input is the driver's keyboard-interactive call with a user name length
                                    of 4 GiB - 4, which libssh2 must refuse unsent
  key-private-ends-at-type 0fcb6625 (a key file, not the server: `--write-key CASE PATH` writes it) an unencrypted
                                    OpenSSH key whose private section ends right after its type name; the server
                                    answers every login with a failure
"""

import hashlib
import hmac
import os
import socket
import struct
import sys
import time

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.poly1305 import Poly1305

DEADLINE = 20.0

MSG_DISCONNECT, MSG_IGNORE, MSG_SERVICE_REQUEST, MSG_SERVICE_ACCEPT, MSG_EXT_INFO = 1, 2, 5, 6, 7
MSG_KEXINIT, MSG_NEWKEYS = 20, 21
MSG_KEX_30, MSG_KEX_31, MSG_KEX_32, MSG_KEX_33, MSG_KEX_34 = 30, 31, 32, 33, 34

# RFC 3526 group 14 (2048-bit MODP), generator 2.
P14 = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
    "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
    "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
    "15728E5A8AACAA68FFFFFFFFFFFFFFFF", 16)
# RFC 2409 second Oakley group (1024-bit MODP), generator 2.
P1024 = int(
    "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
    "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
    "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF", 16)


class Closed(Exception):
    pass


def u32(n):
    return struct.pack(">I", n)


def sstr(b):
    if isinstance(b, str):
        b = b.encode()
    return u32(len(b)) + b


def mpint(n):
    if n == 0:
        return u32(0)
    b = n.to_bytes((n.bit_length() + 7) // 8, "big")
    if b[0] & 0x80:
        b = b"\x00" + b
    return sstr(b)


class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def byte(self):
        self.pos += 1
        return self.data[self.pos - 1]

    def u32(self):
        self.pos += 4
        return struct.unpack(">I", self.data[self.pos - 4:self.pos])[0]

    def string(self):
        n = self.u32()
        self.pos += n
        return self.data[self.pos - n:self.pos]

    def mpint(self):
        return int.from_bytes(self.string(), "big")


def chacha(key, seq, counter, data):
    nonce = counter.to_bytes(8, "little") + seq.to_bytes(8, "big")
    return Cipher(algorithms.ChaCha20(key, nonce), mode=None).encryptor().update(data)


class Transport:
    """Binary packet protocol, server side: plaintext, then aes128-ctr + hmac-sha2-256 or chacha20-poly1305."""

    def __init__(self, sock):
        self.sock = sock
        self.end = time.monotonic() + DEADLINE
        self.buf = b""
        self.seq_out = self.seq_in = 0
        self.out = self.inp = None  # (kind, state...) once keys are in use

    def recv_exact(self, n):
        while len(self.buf) < n:
            left = self.end - time.monotonic()
            if left <= 0:
                raise Closed("deadline")
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                raise Closed("deadline")
            except OSError as e:
                raise Closed(str(e))
            if not chunk:
                raise Closed("client closed")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def recv_line(self):
        line = b""
        while not line.endswith(b"\n"):
            line += self.recv_exact(1)
            if len(line) > 255:
                raise Closed("banner too long")
        return line.rstrip(b"\r\n")

    def send_raw(self, data):
        self.sock.sendall(data)

    def frame(self, payload, padding=None, block=8):
        """packet_length, padding_length, payload, padding (random) — padding None: the usual rule (>= 4, aligned)."""
        if padding is None:
            padding = block - (5 + len(payload)) % block
            if padding < 4:
                padding += block
        return u32(1 + len(payload) + padding) + bytes([padding]) + payload + os.urandom(padding)

    def send(self, payload, padding=None, length_override=None, padding_byte=None):
        if self.out is None:
            pkt = self.frame(payload, padding)
            if length_override is not None:
                pkt = u32(length_override) + pkt[4:]
            self.send_raw(pkt)
        elif self.out[0] == "aes-etm":
            # encrypt-then-MAC: the length stays in the clear, the rest is encrypted, the MAC covers both
            _, enc, mackey = self.out
            pkt = self.frame(payload, padding, 16)
            if padding is None:  # the encrypted part (all but the length) is what must be block-aligned
                pad = 16 - (1 + len(payload)) % 16
                if pad < 4:
                    pad += 16
                pkt = u32(1 + len(payload) + pad) + bytes([pad]) + payload + os.urandom(pad)
            if padding_byte is not None:
                pkt = pkt[:4] + bytes([padding_byte]) + pkt[5:]
            body = enc.update(pkt[4:])
            mac = hmac.new(mackey, u32(self.seq_out) + pkt[:4] + body, hashlib.sha256).digest()
            self.send_raw(pkt[:4] + body + mac)
        elif self.out[0] == "aes":
            _, enc, mackey = self.out
            pkt = self.frame(payload, padding, 16)
            if length_override is not None:
                pkt = u32(length_override) + pkt[4:]
            mac = hmac.new(mackey, u32(self.seq_out) + pkt, hashlib.sha256).digest()
            self.send_raw(enc.update(pkt) + mac)
        else:
            _, k_main, k_len = self.out
            # chacha20-poly1305: the length field is outside the block alignment
            if padding is None:
                padding = 8 - (1 + len(payload)) % 8
                if padding < 4:
                    padding += 8
            body = bytes([padding]) + payload + os.urandom(padding)
            if length_override is not None:
                body = body[:length_override]  # the tag covers what the length field claims, so it is authentic
            length = len(body)
            enc_len = chacha(k_len, self.seq_out, 0, u32(length))
            enc_body = chacha(k_main, self.seq_out, 1, body)
            poly_key = chacha(k_main, self.seq_out, 0, bytes(32))
            p = Poly1305(poly_key)
            p.update(enc_len + enc_body)
            self.send_raw(enc_len + enc_body + p.finalize())
        self.seq_out = (self.seq_out + 1) & 0xFFFFFFFF

    def recv(self):
        if self.inp is None:
            length = struct.unpack(">I", self.recv_exact(4))[0]
            if length > 35000:
                raise Closed("bad length")
            body = self.recv_exact(length)
        elif self.inp[0] == "aes-etm":
            _, dec, mackey = self.inp
            head = self.recv_exact(4)
            length = struct.unpack(">I", head)[0]
            if length > 35000:
                raise Closed("bad length")
            enc = self.recv_exact(length)
            mac = self.recv_exact(32)
            if not hmac.compare_digest(mac, hmac.new(mackey, u32(self.seq_in) + head + enc, hashlib.sha256).digest()):
                raise Closed("bad mac from client")
            body = dec.update(enc)
        elif self.inp[0] == "aes":
            _, dec, mackey = self.inp
            first = dec.update(self.recv_exact(16))
            length = struct.unpack(">I", first[:4])[0]
            if length > 35000:
                raise Closed("bad length")
            rest = dec.update(self.recv_exact(length + 4 - 16))
            pkt = first + rest
            mac = self.recv_exact(32)
            if not hmac.compare_digest(mac, hmac.new(mackey, u32(self.seq_in) + pkt, hashlib.sha256).digest()):
                raise Closed("bad mac from client")
            body = pkt[4:]
        else:
            _, k_main, k_len = self.inp
            enc_len = self.recv_exact(4)
            length = struct.unpack(">I", chacha(k_len, self.seq_in, 0, enc_len))[0]
            if length > 35000:
                raise Closed("bad length")
            enc_body = self.recv_exact(length)
            tag = self.recv_exact(16)
            p = Poly1305(chacha(k_main, self.seq_in, 0, bytes(32)))
            p.update(enc_len + enc_body)
            p.verify(tag)
            body = chacha(k_main, self.seq_in, 1, enc_body)
        self.seq_in = (self.seq_in + 1) & 0xFFFFFFFF
        pad = body[0]
        return body[1:len(body) - pad]

    def recv_skip_ignore(self):
        while True:
            p = self.recv()
            if p and p[0] not in (MSG_IGNORE, 2 + 2):  # IGNORE, DEBUG
                return p


KEX_ALGS = "curve25519-sha256,curve25519-sha256@libssh.org,diffie-hellman-group14-sha256," \
           "diffie-hellman-group-exchange-sha256"


def kexinit_payload(kex=KEX_ALGS, ciphers="aes128-ctr", macs="hmac-sha2-256", langs=True):
    p = bytes([MSG_KEXINIT]) + os.urandom(16)
    for field in (kex, "ssh-ed25519", ciphers, ciphers, macs, macs, "none", "none"):
        p += sstr(field)
    if langs:
        p += sstr("") + sstr("")
    return p + b"\x00" + u32(0)


def run(case, t):
    host = Ed25519PrivateKey.generate()
    host_pub = host.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    k_s = sstr("ssh-ed25519") + sstr(host_pub)

    v_s = b"SSH-2.0-hostile_1.0"
    t.send_raw(v_s + b"\r\n")
    v_c = t.recv_line()
    while not v_c.startswith(b"SSH-"):
        v_c = t.recv_line()

    ciphers = "chacha20-poly1305@openssh.com" if case in ("ok-chacha", "chacha-short-length") else "aes128-ctr"
    if case == "exchange-keys-null":
        i_s = kexinit_payload(kex="ext-info-c")
    elif case == "kexinit-no-lang":
        i_s = kexinit_payload(langs=False)
    elif case in ("ok-dh14", "dh-f-one"):
        i_s = kexinit_payload(kex="diffie-hellman-group14-sha256")
    elif case in ("ok-gex", "gex-small-prime"):
        i_s = kexinit_payload(kex="diffie-hellman-group-exchange-sha256")
    elif case in ("ok-etm", "etm-padding-too-long", "etm-short-packet"):
        i_s = kexinit_payload(macs="hmac-sha2-256-etm@openssh.com")
    else:
        i_s = kexinit_payload(ciphers=ciphers)
    t.send(i_s)
    if case == "service-accept-short":
        # type 6, then a name length of 12 with no name after it; no padding, so the packet buffer ends right there
        t.send(bytes([MSG_SERVICE_ACCEPT]) + u32(12), padding=0)

    i_c = t.recv_skip_ignore()
    if i_c[0] != MSG_KEXINIT:
        raise Closed("expected KEXINIT, got %d" % i_c[0])

    first = t.recv_skip_ignore()
    r = Reader(first)
    kind = r.byte()
    if kind == MSG_KEX_34:  # SSH_MSG_KEX_DH_GEX_REQUEST
        gmin, gn, gmax = r.u32(), r.u32(), r.u32()
        p = P1024 if case == "gex-small-prime" else P14
        g = 2
        t.send(bytes([MSG_KEX_31]) + mpint(p) + mpint(g))
        init = t.recv_skip_ignore()
        if init[0] != MSG_KEX_32:
            raise Closed("expected GEX_INIT, got %d" % init[0])
        e = Reader(init[1:]).mpint()
        y = int.from_bytes(os.urandom(64), "big")
        f = pow(g, y, p)
        k = pow(e, y, p)
        h = hashlib.sha256(sstr(v_c) + sstr(v_s) + sstr(i_c) + sstr(i_s) + sstr(k_s) + u32(gmin) + u32(gn)
                           + u32(gmax) + mpint(p) + mpint(g) + mpint(e) + mpint(f) + mpint(k)).digest()
        reply_type = MSG_KEX_33
        reply = sstr(k_s) + mpint(f)
    elif kind == MSG_KEX_30 and "group14" in i_s.decode("latin-1") and case in ("ok-dh14", "dh-f-one"):
        e = r.mpint()
        if case == "dh-f-one":
            f, k = 1, 1
        else:
            y = int.from_bytes(os.urandom(64), "big")
            f, k = pow(2, y, P14), pow(e, y, P14)
        h = hashlib.sha256(sstr(v_c) + sstr(v_s) + sstr(i_c) + sstr(i_s) + sstr(k_s) + mpint(e) + mpint(f)
                           + mpint(k)).digest()
        reply_type = MSG_KEX_31
        reply = sstr(k_s) + mpint(f)
    elif kind == MSG_KEX_30:  # curve25519
        q_c = r.string()
        priv = X25519PrivateKey.generate()
        q_s = priv.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        k = int.from_bytes(priv.exchange(X25519PublicKey.from_public_bytes(q_c)), "big")
        h = hashlib.sha256(sstr(v_c) + sstr(v_s) + sstr(i_c) + sstr(i_s) + sstr(k_s) + sstr(q_c) + sstr(q_s)
                           + mpint(k)).digest()
        reply_type = MSG_KEX_31
        reply = sstr(k_s) + sstr(q_s)
    else:
        raise Closed("unexpected key exchange message %d" % kind)

    # bad-signature: the host key signs something else than the exchange hash, so the exchange fails after libssh2
    # has parsed the host key
    sig = sstr("ssh-ed25519") + sstr(host.sign(h + b"!" if case == "bad-signature" else h))
    t.send(bytes([reply_type]) + reply + sstr(sig))
    t.send(bytes([MSG_NEWKEYS]))
    nk = t.recv_skip_ignore()
    if nk[0] != MSG_NEWKEYS:
        raise Closed("expected NEWKEYS, got %d" % nk[0])

    kk = mpint(k)

    def derive(letter, n):
        out = hashlib.sha256(kk + h + letter + h).digest()
        while len(out) < n:
            out += hashlib.sha256(kk + h + out).digest()
        return out[:n]

    if case in ("ok-etm", "etm-padding-too-long", "etm-short-packet"):
        t.out = ("aes-etm", Cipher(algorithms.AES(derive(b"D", 16)), modes.CTR(derive(b"B", 16))).encryptor(),
                 derive(b"F", 32))
        t.inp = ("aes-etm", Cipher(algorithms.AES(derive(b"C", 16)), modes.CTR(derive(b"A", 16))).decryptor(),
                 derive(b"E", 32))
    elif ciphers == "aes128-ctr":
        t.out = ("aes", Cipher(algorithms.AES(derive(b"D", 16)), modes.CTR(derive(b"B", 16))).encryptor(),
                 derive(b"F", 32))
        t.inp = ("aes", Cipher(algorithms.AES(derive(b"C", 16)), modes.CTR(derive(b"A", 16))).decryptor(),
                 derive(b"E", 32))
    else:
        ks, kc = derive(b"D", 64), derive(b"C", 64)
        t.out = ("chacha", ks[:32], ks[32:])
        t.inp = ("chacha", kc[:32], kc[32:])

    if case == "chacha-short-length":
        # an authentic packet (the tag is right: the server holds the keys) whose length field says 1 byte
        t.send(b"", length_override=1)
    if case == "etm-padding-too-long":
        # an authentic 16-byte packet whose padding-length byte says 255: EXT_INFO, one extension whose name claims
        # 1000 bytes; the payload length libssh2 computes, 15 - 255, wraps around
        t.send(bytes([MSG_EXT_INFO]) + u32(1) + u32(1000), padding=6, padding_byte=255)
    if case == "etm-short-packet":
        # an authentic encrypt-then-MAC packet of 8 bytes, shorter than one AES block (IGNORE, 6 bytes of padding)
        t.send(bytes([MSG_IGNORE]), padding=6)
    if case == "ext-info-count":
        t.send(bytes([MSG_EXT_INFO]) + u32(100000) + sstr("server-sig-algs") + sstr("ssh-ed25519"))

    req = t.recv_skip_ignore()
    if req[0] != MSG_SERVICE_REQUEST:
        raise Closed("expected SERVICE_REQUEST, got %d" % req[0])
    t.send(bytes([MSG_SERVICE_ACCEPT]) + sstr("ssh-userauth"))
    if case in SESSION_CASES or case.startswith("sftp-long-"):
        serve_session(case, t)
    elif case in KEY_CASES or case == "userauth-kbd-long":
        # every login attempt fails: the driver's key file is parsed (or refused) before any is sent
        while True:
            m = t.recv_skip_ignore()
            if m[0] == MSG_USERAUTH_REQUEST:
                t.send(bytes([51]) + sstr("publickey") + b"\x00")  # SSH_MSG_USERAUTH_FAILURE
    # Stay until the client hangs up (or the deadline), so its result is its own.
    while True:
        t.recv()


MSG_USERAUTH_REQUEST, MSG_USERAUTH_SUCCESS = 50, 52
MSG_CHANNEL_OPEN, MSG_CHANNEL_OPEN_CONFIRMATION = 90, 91
MSG_CHANNEL_DATA, MSG_CHANNEL_EOF, MSG_CHANNEL_CLOSE = 94, 96, 97
MSG_CHANNEL_REQUEST, MSG_CHANNEL_SUCCESS = 98, 99

KEY_CASES = ("key-private-ends-at-type",)
SESSION_CASES = ("ignored-stderr-eagain", "window-adjust-wrap", "ok-exec", "exit-signal-short-name", "exit-signal-twice", "ok-sftp",
                 "sftp-readdir-huge")
MSG_CHANNEL_WINDOW_ADJUST = 93

SSH_FXP_INIT, SSH_FXP_VERSION, SSH_FXP_CLOSE, SSH_FXP_OPENDIR, SSH_FXP_READDIR = 1, 2, 4, 11, 12
SSH_FXP_STATUS, SSH_FXP_HANDLE, SSH_FXP_NAME = 101, 102, 104


def serve_sftp(case, t, peer):
    """An SFTP v3 answerer for the client's opendir/readdir/close, over the session channel's data."""
    stream = b""

    def send_sftp(body):
        t.send(bytes([MSG_CHANNEL_DATA]) + u32(peer) + sstr(u32(len(body)) + body))

    while True:
        while len(stream) < 4 or len(stream) < 4 + struct.unpack(">I", stream[:4])[0]:
            m = t.recv_skip_ignore()
            if m[0] == MSG_CHANNEL_DATA:
                stream += Reader(m[5:]).string()
            elif m[0] in (MSG_CHANNEL_EOF, MSG_CHANNEL_CLOSE):
                t.send(bytes([MSG_CHANNEL_CLOSE]) + u32(peer))
                return
            # window adjusts and anything else: nothing to answer
        n = struct.unpack(">I", stream[:4])[0]
        pkt, stream = stream[4:4 + n], stream[4 + n:]
        r = Reader(pkt)
        kind = r.byte()
        if kind == SSH_FXP_INIT:
            send_sftp(bytes([SSH_FXP_VERSION]) + u32(3))
            continue
        rid = r.u32()
        if kind == SSH_FXP_OPENDIR:
            send_sftp(bytes([SSH_FXP_HANDLE]) + u32(rid) + sstr("d1"))
        elif kind == SSH_FXP_READDIR and case == "sftp-readdir-huge":
            # a NAME reply announcing 4 GiB - 256 bytes: only its header is ever sent
            t.send(bytes([MSG_CHANNEL_DATA]) + u32(peer) + sstr(u32(0xFFFFFF00) + bytes([SSH_FXP_NAME]) + u32(rid)))
        elif kind == SSH_FXP_READDIR and not getattr(serve_sftp, "listed", False):
            serve_sftp.listed = True
            send_sftp(bytes([SSH_FXP_NAME]) + u32(rid) + u32(1) + sstr("a") +
                      sstr("-rw-r--r--    1 essh     essh            0 Jan  1 00:00 a") + u32(0))
        elif kind == SSH_FXP_READDIR:
            send_sftp(bytes([SSH_FXP_STATUS]) + u32(rid) + u32(1) + sstr("End of file") + sstr(""))
        else:  # CLOSE and anything else: OK
            send_sftp(bytes([SSH_FXP_STATUS]) + u32(rid) + u32(0) + sstr("") + sstr(""))


def serve_session(case, t):
    """After the handshake: any "none" login succeeds, one session channel, exec answered, then the case's ending."""
    req = t.recv_skip_ignore()
    if req[0] != MSG_USERAUTH_REQUEST:
        raise Closed("expected USERAUTH_REQUEST, got %d" % req[0])
    t.send(bytes([MSG_USERAUTH_SUCCESS]))
    op = t.recv_skip_ignore()
    if op[0] != MSG_CHANNEL_OPEN:
        raise Closed("expected CHANNEL_OPEN, got %d" % op[0])
    r = Reader(op[1:])
    r.string()
    peer = r.u32()
    window = 0xFFFFFF00 if case == "window-adjust-wrap" else 2 * 1024 * 1024
    t.send(bytes([MSG_CHANNEL_OPEN_CONFIRMATION]) + u32(peer) + u32(0) + u32(window) + u32(32768))
    ex = t.recv_skip_ignore()
    if ex[0] != MSG_CHANNEL_REQUEST:
        raise Closed("expected CHANNEL_REQUEST, got %d" % ex[0])
    t.send(bytes([MSG_CHANNEL_SUCCESS]) + u32(peer))
    if Reader(ex[5:]).string() == b"subsystem":
        serve_sftp(case, t, peer)
        return
    if case == "ignored-stderr-eagain":
        # stderr (which the client ignores), then read nothing more: the client's window adjustment for it
        # cannot be sent once the client has filled its side. Wait for the client to hang up, without reading.
        t.send(bytes([95]) + u32(peer) + u32(1) + sstr(b"e" * 1000))  # SSH_MSG_CHANNEL_EXTENDED_DATA, stderr
        import select
        p = select.poll()
        p.register(t.sock, select.POLLRDHUP | select.POLLHUP)
        p.poll(max(0.0, t.end - time.monotonic()) * 1000)
        raise Closed("client hung up (not read)")
    t.send(bytes([MSG_CHANNEL_DATA]) + u32(peer) + sstr("hello\n"))

    def request(name, body):
        t.send(bytes([MSG_CHANNEL_REQUEST]) + u32(peer) + sstr(name) + b"\x00" + body)

    if case == "ok-exec":
        request("exit-status", u32(0))
    elif case == "window-adjust-wrap":
        # the window the client may send into was opened at 2^32 - 256; 512 more passes 2^32 - 1 (RFC 4254 5.2)
        t.send(bytes([MSG_CHANNEL_WINDOW_ADJUST]) + u32(peer) + u32(0x200))
        request("exit-status", u32(0))
    elif case == "exit-signal-short-name":
        # the name claims 100 bytes and the packet ends after 4 of them
        request("exit-signal", u32(100) + b"KILL")
    elif case == "exit-signal-twice":
        for name in ("TERM", "KILL"):
            request("exit-signal", sstr(name) + b"\x00" + sstr("") + sstr(""))
    t.send(bytes([MSG_CHANNEL_EOF]) + u32(peer))
    t.send(bytes([MSG_CHANNEL_CLOSE]) + u32(peer))


def write_key(case, path):
    """The key files of the "key" cases: written by the runner before the driver reads them (mode 0600)."""
    import base64
    if case == "key-private-ends-at-type":
        # openssh-key-v1, cipher "none": the private section holds check1, check2 and the key type, and ends there,
        # so the copy libssh2 makes of it ends right after "ssh-ed25519" with no terminating byte
        pub = sstr("ssh-ed25519") + sstr(bytes(32))
        private = u32(0x01020304) + u32(0x01020304) + sstr("ssh-ed25519")
        blob = b"openssh-key-v1\x00" + sstr("none") + sstr("none") + sstr("") + u32(1) + sstr(pub) + sstr(private)
    else:
        raise SystemExit("no key file for case %s" % case)
    text = base64.b64encode(blob).decode()
    lines = [text[i:i + 70] for i in range(0, len(text), 70)]
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write("-----BEGIN OPENSSH PRIVATE KEY-----\n" + "\n".join(lines) + "\n-----END OPENSSH PRIVATE KEY-----\n")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--write-key":
        write_key(sys.argv[2], sys.argv[3])
        return 0
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    case = sys.argv[1]
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if case == "ignored-stderr-eagain":
        srv.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # inherited by the accepted socket
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    print("PORT %d" % srv.getsockname()[1], flush=True)
    srv.settimeout(DEADLINE)
    try:
        conn, _ = srv.accept()
    except socket.timeout:
        sys.stderr.write("hostile-ssh-server: no connection within %gs\n" % DEADLINE)
        return 1
    t = Transport(conn)
    try:
        run(case, t)
    except Closed as e:
        sys.stderr.write("hostile-ssh-server[%s]: %s\n" % (case, e))
    except Exception as e:  # the client may drop the connection anywhere; the verdict is the client's
        sys.stderr.write("hostile-ssh-server[%s]: %s: %s\n" % (case, type(e).__name__, e))
    finally:
        conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
