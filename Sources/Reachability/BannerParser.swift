import Basics

/// Decides from the first bytes a server sends whether it speaks SSH: Basics.SSHIdentification's rule (RFC 4253
/// §4.2: other lines may come before `SSH-…`, as OpenSSH accepts), with at most `maxReceived` bytes held per target
/// (a check of thousands of servers keeps little of each). Pure.
enum BannerParser {
    enum Verdict: Equatable {
        case needMore
        case ssh(String)
        case notSSH(String)
    }

    /// The longest identification line; the check's reads stop at a line end or here and judge.
    static let maxLine = SSHIdentification.maxIdentificationLength
    /// Bytes of text before the identification a check reads before it calls the server not SSH.
    static let maxReceived = 64 * 1024

    static func verdict(_ bytes: [UInt8], ended: Bool) -> Verdict {
        switch SSHIdentification.scan(bytes, ended: ended) {
        case .found(let line, _, _):
            return .ssh(line)
        case .refused(_, let firstLine):
            return .notSSH(firstLine)
        case .needMore:
            if bytes.count > maxReceived { return .notSSH(firstLine(bytes)) }
            return .needMore
        }
    }

    /// Printable ASCII only, at most `maxLine` characters: banners end up in terminals and JSON.
    static func sanitise(_ bytes: [UInt8]) -> String { SSHIdentification.printable(bytes) }

    static func firstLine(_ bytes: [UInt8]) -> String {
        sanitise(Array(bytes.prefix { $0 != UInt8(ascii: "\n") }))
    }
}
