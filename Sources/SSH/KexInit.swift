/// A server's SSH_MSG_KEXINIT (RFC 4253 §7.1): the algorithms it offers, sent in the clear right after the version
/// lines. libssh2 does not expose the server's lists, so after a failed negotiation eSSH reads them on a second,
/// short connection (`KexInitProbe`) to say what the server offered.
public struct KexInit: Sendable, Equatable {
    /// Key exchange methods, extension markers (`ext-info-s`, `kex-strict-s-v00@openssh.com`) included.
    public var kex: [String]
    /// Host key algorithms.
    public var hostKeys: [String]
    public var ciphersClientToServer: [String]
    public var ciphersServerToClient: [String]
    public var macsClientToServer: [String]
    public var macsServerToClient: [String]
    public var compressionClientToServer: [String]
    public var compressionServerToClient: [String]
    public var languagesClientToServer: [String]
    public var languagesServerToClient: [String]
    /// The server guessed the key exchange and sends its first packet without waiting.
    public var firstKexPacketFollows: Bool

    /// SSH_MSG_KEXINIT's message number.
    static let messageNumber: UInt8 = 20

    /// Reads a KEXINIT payload: byte 20, a 16-byte cookie, ten name-lists, a boolean and a reserved uint32. Throws
    /// a protocol error saying what is wrong (short, not a KEXINIT, a name-list longer than the payload).
    public init(payload: [UInt8]) throws(SSHError) {
        var reader = ByteReader(payload)
        guard try reader.byte() == Self.messageNumber else {
            throw SSHError(.protocolError, "message \(payload.first ?? 0) instead of KEXINIT",
                           "The server sent something else than its algorithm lists.")
        }
        try reader.skip(16)
        var lists: [[String]] = []
        for _ in 0..<10 { lists.append(try reader.nameList()) }
        kex = lists[0]
        hostKeys = lists[1]
        ciphersClientToServer = lists[2]
        ciphersServerToClient = lists[3]
        macsClientToServer = lists[4]
        macsServerToClient = lists[5]
        compressionClientToServer = lists[6]
        compressionServerToClient = lists[7]
        languagesClientToServer = lists[8]
        languagesServerToClient = lists[9]
        firstKexPacketFollows = try reader.byte() != 0
        // The reserved uint32 is not checked: a server that leaves it out still told us its lists.
    }

    /// The key exchange methods without the extension markers.
    public var kexMethods: [String] { kex.filter { !Algorithms.isExtensionMarker($0) } }

    /// Whether the server offers OpenSSH's strict key exchange (the Terrapin counter-measure).
    public var offersStrictKex: Bool { kex.contains("kex-strict-s-v00@openssh.com") }
}

/// Reads SSH wire types from bytes, throwing on anything short or malformed.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var remaining: Int { bytes.count - offset }

    mutating func byte() throws(SSHError) -> UInt8 {
        guard remaining >= 1 else { throw Self.short("a byte") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint32() throws(SSHError) -> UInt32 {
        guard remaining >= 4 else { throw Self.short("a uint32") }
        defer { offset += 4 }
        return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func skip(_ n: Int) throws(SSHError) {
        guard remaining >= n else { throw Self.short("\(n) bytes") }
        offset += n
    }

    /// A string (RFC 4251 §5): a uint32 length, then that many bytes.
    mutating func string() throws(SSHError) -> ArraySlice<UInt8> {
        let length = Int(try uint32())
        guard length <= remaining else {
            throw SSHError(.protocolError, "string of \(length) bytes, \(remaining) left",
                           "The server's algorithm lists are malformed.")
        }
        defer { offset += length }
        return bytes[offset..<offset + length]
    }

    /// A name-list (RFC 4251 §5): a string of comma-separated US-ASCII names.
    mutating func nameList() throws(SSHError) -> [String] {
        Self.printable(try string()).split(separator: ",").map(String.init)
    }

    /// Text the server chose, safe to print: bytes outside printable ASCII become `?` (names are US-ASCII by the
    /// RFC; a terminal must never obey an escape sequence a server slipped into one).
    static func printable(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.map { (0x20...0x7e).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    static func short(_ what: String) -> SSHError {
        SSHError(.protocolError, "KEXINIT ends before \(what)", "The server's algorithm lists are cut short.")
    }
}

/// Reads what a server sends first — lines before its version, the `SSH-2.0-…` line, then binary packets — until its
/// KEXINIT, byte chunk by byte chunk, without doing I/O (the probe feeds it what the socket gave).
struct KexInitReader {
    /// What the reader still needs.
    enum Step: Equatable {
        case needMore
        case done(version: String, kexInit: KexInit)
    }

    /// Sizes beyond which the other side is not a sane SSH server (OpenSSH's own limits are smaller).
    static let maxLineLength = 8192
    static let maxLinesBeforeVersion = 1024
    static let maxPacketLength = 256 * 1024

    private var buffer: [UInt8] = []
    private var version: String?
    private var linesBefore = 0

    /// Takes the next bytes; says whether the KEXINIT is complete. Throws when the stream is not SSH 2 or a packet
    /// is malformed, or when the server disconnects first (its reason in the message).
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(SSHError) -> Step {
        buffer.append(contentsOf: bytes)
        while version == nil {
            guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else {
                if buffer.count > Self.maxLineLength { throw Self.notSSH("a line of more than 8 KiB") }
                return .needMore
            }
            var line = buffer[..<newline]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            let text = ByteReader.printable(line)
            buffer.removeSubrange(...newline)
            if text.hasPrefix("SSH-") {
                guard text.hasPrefix("SSH-2.0-") || text.hasPrefix("SSH-1.99-") else {
                    throw Self.notSSH("version line “\(text)”")
                }
                version = text
            } else {
                linesBefore += 1
                if linesBefore > Self.maxLinesBeforeVersion { throw Self.notSSH("no version line") }
            }
        }
        while buffer.count >= 5 {
            let length = Int(buffer[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let padding = Int(buffer[4])
            guard length >= padding + 2, length <= Self.maxPacketLength else {
                throw SSHError(.protocolError, "packet length \(length), padding \(padding)",
                               "The server sent a malformed packet before the key exchange.")
            }
            guard buffer.count >= 4 + length else { return .needMore }
            let payload = Array(buffer[5..<(4 + length - padding)])
            buffer.removeSubrange(..<(4 + length))
            switch payload.first {
            case KexInit.messageNumber:
                return .done(version: version ?? "", kexInit: try KexInit(payload: payload))
            case 2, 4:  // SSH_MSG_IGNORE, SSH_MSG_DEBUG: skipped, as any client does
                continue
            case 1:  // SSH_MSG_DISCONNECT: uint32 reason, string description
                var reader = ByteReader(payload)
                _ = try? reader.byte()
                _ = try? reader.uint32()
                let description = (try? reader.string()).map(ByteReader.printable) ?? ""
                throw SSHError(.disconnected, "disconnect before KEXINIT: \(description)",
                               "The server closed the connection before offering its algorithms: \(description)")
            default:
                throw SSHError(.protocolError, "message \(payload.first ?? 0) before KEXINIT",
                               "The server sent an unexpected message before the key exchange.")
            }
        }
        return .needMore
    }

    static func notSSH(_ what: String) -> SSHError {
        SSHError(.protocolError, what, "The other side does not speak SSH 2 (\(what)).")
    }
}
