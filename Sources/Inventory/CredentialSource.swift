import Basics

/// Where a saved server's password or key passphrase comes from (issue 17 §2): asked each time (`ask`, the default),
/// the vault (`vault`), or the output of a program the person names (`command:pass show servers/db1`). Stored in the
/// server's `credential` column as `text`; the one reading of that text for `essh servers add/edit --credential`,
/// the form and the JSON import. The command line is split into words as ssh_config's arguments are (OpenSSH's
/// argv_split, `SSHConfigReader.split`) and run without a shell; whether its program exists is Operations' check
/// (`CredentialSourceCheck`), which needs the PATH of the machine that runs it.
public enum CredentialSource: Sendable, Equatable, Hashable {
    /// Asked when needed (today's behaviour).
    case ask
    /// Read from eSSH's vault, by the server's `uid`.
    case vault
    /// Printed by this command line (as written, split by `words`).
    case command(String)

    /// The prefix of a command source.
    public static let commandPrefix = "command:"

    /// The source as stored and shown: `ask`, `vault`, `command:LINE`.
    public var text: String {
        switch self {
        case .ask: return "ask"
        case .vault: return "vault"
        case .command(let line): return Self.commandPrefix + line
        }
    }

    /// The source a stored text stands for; a text this version does not read falls back to `ask` (nothing is
    /// sent to a server that eSSH was not told to send).
    public init(stored text: String?) {
        guard let text, case .success(let source) = Self.parse(text) else {
            self = .ask
            return
        }
        self = source
    }

    /// The source `text` names (`ask`, `vault`, `command:LINE`; an empty text is `ask`), or why it names none.
    public static func parse(_ text: String) -> Result<CredentialSource, Problem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if ControlCharacters.contains(text) {
            return .failure(Problem("""
                The credential source '\(ControlCharacters.visible(text))' contains a control character (shown as \
                \\x..); type it without one.
                """))
        }
        switch trimmed.lowercased() {
        case "", "ask": return .success(.ask)
        case "vault": return .success(.vault)
        default: break
        }
        guard trimmed.lowercased().hasPrefix(commandPrefix) else {
            return .failure(Problem("""
                '\(trimmed)' is no credential source: write ask (asked each time), vault (eSSH's vault) or \
                command:"PROGRAM ARGS" (a program that prints the secret, such as command:"pass show servers/db1").
                """))
        }
        let line = String(trimmed.dropFirst(commandPrefix.count)).trimmingCharacters(in: .whitespaces)
        guard !words(line).isEmpty else {
            return .failure(Problem("""
                The credential command is empty: write the program that prints the secret after command:, \
                such as command:"pass show servers/db1".
                """))
        }
        return .success(.command(line))
    }

    /// A command line as the program and its arguments, split as ssh_config splits an option's arguments: blanks
    /// separate, `"…"` and `'…'` quote, `\\`, `\"`, `\'` and `\ ` escape; no shell, no expansion.
    public static func words(_ line: String) -> [String] {
        SSHConfigReader.split(line: "command " + line)?.1 ?? []
    }

    /// Why a text names no credential source: a sentence saying what to write instead.
    public struct Problem: Error, Sendable, Equatable {
        public let message: String
        public init(_ message: String) { self.message = message }
    }
}

/// Stored and exported as its text (`ask`, `vault`, `command:LINE`).
extension CredentialSource: Codable {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        switch Self.parse(text) {
        case .success(let source): self = source
        case .failure(let problem):
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: problem.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
