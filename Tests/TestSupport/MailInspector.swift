import Foundation

/// Reads mail the way a mail program would, with Python's `email` package (an independent RFC 5322/MIME parser,
/// so our encoder is never checked only by our own decoder), and finds delivered messages in an mbox.
public enum MailInspector {
    /// A message as a mail reader sees it.
    public struct Parsed: Decodable, Sendable {
        /// Every header as written (name, raw value with folding).
        public let rawHeaders: [[String]]
        /// Header values decoded (RFC 2047) and unfolded, by lower-cased name (the first of each).
        public let headers: [String: String]
        /// Problems the parser found (empty for a well-formed message).
        public let defects: [String]
        /// The leaf parts: content type, file name, transfer encoding, the decoded text (nil when not UTF-8).
        public let parts: [Part]
        /// The longest physical line of the message, in bytes.
        public let longestLine: Int
        /// True when every byte of the header block is ASCII.
        public let asciiHeaders: Bool

        /// One leaf part.
        public struct Part: Decodable, Sendable {
            public let contentType: String
            public let filename: String?
            public let transferEncoding: String?
            public let charset: String?
            public let text: String?
        }

        /// The decoded value of header `name` (any case).
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// Parses one message.
    public static func parse(_ bytes: [UInt8]) throws -> Parsed {
        try decode(try python(["parse"], stdin: Data(bytes)))
    }

    /// Waits (up to `timeout` seconds; delivery may be in the background) for a message in /var/mail/`user`
    /// whose decoded Subject or Message-ID contains `marker`, and returns its raw bytes.
    public static func delivered(to user: String, marker: String, timeout: TimeInterval = 15) throws -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let out = try python(["find", "/var/mail/" + user, marker], stdin: nil)
            if !out.isEmpty { return Array(out) }
            if Date() > deadline {
                throw Failure(description: "No message with “\(marker)” arrived in /var/mail/\(user) within \(Int(timeout)) s.")
            }
            usleep(100_000)
        }
    }

    /// `user@` this machine's host name: an address the local MTA delivers to /var/mail/`user`.
    public static func localAddress(_ user: String = "essh-test") throws -> String {
        user + "@" + (try Spawn.run("/bin/hostname", [])).out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// An error of the inspector.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    private static func decode(_ data: Data) throws -> Parsed {
        do {
            return try JSONDecoder().decode(Parsed.self, from: data)
        } catch {
            throw Failure(description: "python's email parser said: \(String(decoding: data, as: UTF8.self))")
        }
    }

    private static func python(_ args: [String], stdin: Data?) throws -> Data {
        let result = try Spawn.run("/usr/bin/python3", ["-c", script] + args, stdin: stdin)
        guard result.status == 0 else {
            throw Failure(description: "python3 failed (\(result.status)): \(result.err)")
        }
        return result.stdout
    }

    private static let script = #"""
import sys, json, email, email.policy, mailbox
mode = sys.argv[1]
if mode == "find":
    path, marker = sys.argv[2], sys.argv[3]
    try:
        box = mailbox.mbox(path, create=False)
        for key in box.keys():
            raw = box.get_bytes(key)
            head = email.message_from_bytes(raw.split(b"\n\n", 1)[0] + b"\n\n", policy=email.policy.default)
            if any(marker in str(head.get(name, "")) for name in ("Subject", "Message-ID")):
                sys.stdout.buffer.write(raw)
                break
    except (FileNotFoundError, mailbox.NoSuchMailboxError):
        pass
    sys.exit(0)
data = sys.stdin.buffer.read()
msg = email.message_from_bytes(data, policy=email.policy.default)
head = data.split(b"\n\n", 1)[0]
defects = [type(d).__name__ for d in msg.defects]
headers = {}
for k, v in msg.items():
    headers.setdefault(k.lower(), str(v))
    if getattr(v, "defects", None):
        defects += [k + ": " + type(d).__name__ for d in v.defects]
parts = []
for part in msg.walk():
    defects += [type(d).__name__ for d in part.defects if part is not msg]
    if part.is_multipart():
        continue
    payload = part.get_payload(decode=True)
    try:
        text = payload.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    parts.append({"contentType": part.get_content_type(), "filename": part.get_filename(),
                  "transferEncoding": part.get("Content-Transfer-Encoding"),
                  "charset": part.get_content_charset(), "text": text})
print(json.dumps({"rawHeaders": [[k, v] for k, v in msg.raw_items()], "headers": headers, "defects": defects,
                  "parts": parts, "longestLine": max(len(l) for l in data.split(b"\n")),
                  "asciiHeaders": all(b < 128 for b in head)}))
"""#
}
