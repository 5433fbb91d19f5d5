/// Decides from the first bytes a server sends whether it speaks SSH (RFC 4253 section 4.2). Pure.
enum BannerParser {
    enum Verdict: Equatable {
        case needMore
        case ssh(String)
        case notSSH(String)
    }

    /// An identification line is at most 255 bytes; past this without a line end it is not SSH.
    static let maxLine = 255

    static func verdict(_ bytes: [UInt8], ended: Bool) -> Verdict {
        // A line longer than `maxLine` is not SSH whether its end came in the same read or not (the answer must not
        // depend on how the bytes arrived).
        if let newline = bytes.prefix(maxLine + 1).firstIndex(of: UInt8(ascii: "\n")) {
            return classify(Array(bytes[..<newline]))
        }
        if bytes.count > maxLine { return .notSSH(sanitise(bytes)) }
        // The peer closed after a partial line: judge what came.
        if ended { return bytes.isEmpty ? .notSSH("") : classify(bytes) }
        return .needMore
    }

    static func classify(_ line: [UInt8]) -> Verdict {
        let text = sanitise(line)
        return line.starts(with: Array("SSH-".utf8)) ? .ssh(text) : .notSSH(text)
    }

    /// Printable ASCII only, at most `maxLine` characters: banners end up in terminals and JSON.
    static func sanitise(_ bytes: [UInt8]) -> String {
        let kept = bytes.lazy.filter { (0x20...0x7E).contains($0) }.prefix(maxLine)
        return String(decoding: Array(kept), as: UTF8.self)
    }
}
