/// The server's identification as RFC 4253 §4.2 has it: `SSH-protoversion-softwareversion` on a line of its own,
/// which the server MAY precede with other lines of text. Read as OpenSSH reads it: at most `maxLines` such lines,
/// none longer than `maxLineLength` bytes, and the identification line itself at most 255 bytes. Pure: the SSH
/// module (before the handshake) and Reachability (`essh check`) both judge what arrived with it.
public enum SSHIdentification {
    /// Lines a server may send before its identification (OpenSSH's limit).
    public static let maxLines = 1024
    /// The longest line accepted before the identification (OpenSSH's limit).
    public static let maxLineLength = 8192
    /// The longest identification line, CR LF not counted (RFC 4253 counts them; servers sending 255 characters
    /// and CR LF exist, and OpenSSH accepts far longer).
    public static let maxIdentificationLength = 255

    public enum Verdict: Sendable, Equatable {
        /// Nothing decided yet; `consumable` bytes at the front are whole lines that are not the identification
        /// (a reader may drop them and scan on with `linesBefore` raised by `lines`).
        case needMore(consumable: Int, lines: Int)
        /// The identification line (printable ASCII, without CR LF) begins `offset` bytes in, after `lines` other
        /// lines.
        case found(line: String, offset: Int, lines: Int)
        /// Not an SSH server, or one breaking the limits: why, and the first line it sent (printable ASCII).
        case refused(reason: String, firstLine: String)
    }

    /// Judges `bytes` (what arrived and was not dropped yet), after `linesBefore` lines already dropped; `ended`:
    /// the peer closed the connection.
    public static func scan(_ bytes: [UInt8], linesBefore: Int = 0, ended: Bool = false) -> Verdict {
        var start = 0
        var lines = 0
        var firstLine: String?
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            let line = Array(bytes[start..<newline])
            if line.starts(with: Array("SSH-".utf8)) {
                if contentLength(line[...]) > maxIdentificationLength {
                    return .refused(reason: "its identification line is longer than \(maxIdentificationLength) bytes",
                                    firstLine: printable(line))
                }
                return .found(line: printable(line), offset: start, lines: lines)
            }
            firstLine = firstLine ?? printable(line)
            if line.count + 1 > maxLineLength {
                return .refused(reason: "it sent a line of more than \(maxLineLength) bytes instead of an SSH "
                                    + "identification", firstLine: printable(line))
            }
            lines += 1
            if linesBefore + lines > maxLines {
                return .refused(reason: "it sent more than \(maxLines) lines without an SSH identification",
                                firstLine: firstLine ?? "")
            }
            start = newline + 1
        }
        let rest = bytes[start...]
        if rest.starts(with: Array("SSH-".utf8)) && contentLength(rest) > maxIdentificationLength {
            return .refused(reason: "its identification line is longer than \(maxIdentificationLength) bytes",
                            firstLine: printable(Array(rest)))
        }
        if rest.count >= maxLineLength {
            return .refused(reason: "it sent \(rest.count) bytes without a line break instead of an SSH "
                                + "identification", firstLine: firstLine ?? printable(Array(rest)))
        }
        if ended {
            let shown = firstLine ?? printable(Array(rest))
            return .refused(reason: shown.isEmpty && lines == 0
                                ? "it closed the connection without an SSH identification"
                                : "it closed the connection after text that is not an SSH identification",
                            firstLine: shown)
        }
        return .needMore(consumable: start, lines: lines)
    }

    /// A line's length without its CR (the LF is never part of it): an identification of 255 characters is
    /// accepted whether it ends in CR LF or LF, and judged the same however its bytes arrive.
    static func contentLength(_ line: ArraySlice<UInt8>) -> Int {
        line.last == UInt8(ascii: "\r") ? line.count - 1 : line.count
    }

    /// Printable ASCII only, at most 255 characters: what a server sent ends up in terminals and JSON.
    public static func printable(_ bytes: [UInt8]) -> String {
        let kept = bytes.lazy.filter { (0x20...0x7E).contains($0) }.prefix(maxIdentificationLength)
        return String(decoding: Array(kept), as: UTF8.self)
    }
}
