/// OpenSSH's escape sequences on the keyboard stream, as a state machine that does no I/O: the escape character
/// (`~`) means something only as the first byte of a line (after CR or LF, or at the very start). Then `~.`
/// disconnects, `~?` lists the escapes, `~~` sends one `~`, and `~` followed by anything else sends both bytes.
/// A `~` at the start of a line is held back until the next byte tells what it is, as ssh does.
public struct EscapeScanner: Sendable {
    /// What the keyboard bytes amount to, in order.
    public enum Action: Sendable, Equatable {
        /// Bytes for the remote shell.
        case send([UInt8])
        /// `~.`: end the shell now (bytes after it are dropped).
        case disconnect
        /// `~?`: show the list of escapes.
        case help
    }

    /// The escape character (`~` by default).
    public let escapeCharacter: UInt8
    private var atLineStart = true
    private var escapePending = false

    /// A scanner for `escapeCharacter`; a new one starts at the beginning of a line, as a new session does.
    public init(escapeCharacter: UInt8 = UInt8(ascii: "~")) {
        self.escapeCharacter = escapeCharacter
    }

    /// Whether a `~` at the start of a line is waiting for the next byte.
    public var isHoldingEscape: Bool { escapePending }

    /// Scans `bytes` typed by the person; consecutive bytes to send come back as one `.send`.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Action] {
        var actions: [Action] = []
        var out: [UInt8] = []
        func flush() {
            if !out.isEmpty { actions.append(.send(out)); out = [] }
        }
        for byte in bytes {
            if escapePending {
                escapePending = false
                switch byte {
                case UInt8(ascii: "."):
                    flush()
                    actions.append(.disconnect)
                    return actions
                case UInt8(ascii: "?"):
                    flush()
                    actions.append(.help)
                    // Still at the start of a line: `~?` then `~.` works, as in ssh.
                    continue
                case escapeCharacter:
                    break
                default:
                    out.append(escapeCharacter)
                }
            } else if atLineStart && byte == escapeCharacter {
                escapePending = true
                continue
            }
            atLineStart = byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
            out.append(byte)
        }
        flush()
        return actions
    }

    /// The list `~?` shows (CR LF line ends: the terminal is in raw mode while it is shown).
    public static func helpText(escapeCharacter: UInt8 = UInt8(ascii: "~")) -> String {
        let e = String(UnicodeScalar(escapeCharacter))
        return [
            "Supported escape sequences:",
            " \(e).   - leave the shell (ends it on the server)",
            " \(e)?   - this message",
            " \(e)\(e)   - send the escape character by typing it twice",
            "(Note that escapes are only recognized immediately after newline.)",
        ].joined(separator: "\r\n") + "\r\n"
    }
}
