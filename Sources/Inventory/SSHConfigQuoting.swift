import Basics

/// Writing values into an ssh_config file so that OpenSSH reads back exactly the value and nothing more. OpenSSH
/// (readconf.c through misc.c's argv_split) splits a line at unquoted blanks, treats an unquoted `#` at the start of
/// a word as a comment, takes `"…"` and `'…'` as quotes, and `\\`, `\"`, `\'` (and `\ ` outside quotes) as escapes;
/// some keywords then expand `%` tokens, `~` and `${VAR}`. A value that would change meaning is quoted and escaped;
/// one that cannot be written at all (a line break, any control character, `${` where OpenSSH expands it) is
/// refused, never written in a way that could add a line such as `ProxyCommand`.
public enum SSHConfigQuoting {
    /// How OpenSSH treats one keyword's value after splitting.
    public enum Expansion: Sendable {
        /// Taken as it is (User, Port, the algorithm lists).
        case none
        /// `%%` and `%h` expanded (HostName).
        case percentTokens
        /// `%` tokens, a leading `~` and `${VAR}` expanded (IdentityFile).
        case path
    }

    /// Why a value cannot be written.
    public struct Unrepresentable: Error, Sendable, Equatable {
        public let reason: String
    }

    /// `value` as one ssh_config argument that OpenSSH reads back as `value`.
    public static func argument(_ value: String, expansion: Expansion = .none) throws(Unrepresentable) -> String {
        if ControlCharacters.contains(value) {
            throw Unrepresentable(reason: "it holds a control character (a line break would start a new line)")
        }
        var text = value
        switch expansion {
        case .none:
            break
        case .percentTokens:
            text = text.replacingOccurrences(of: "%", with: "%%")
        case .path:
            if text.contains("${") {
                throw Unrepresentable(reason: "OpenSSH would expand its '${' as an environment variable")
            }
            text = text.replacingOccurrences(of: "%", with: "%%")
        }
        let special = text.isEmpty || text.contains { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "'" || $0 == "\\" }
            || text.hasPrefix("#") || text.contains("=")
        guard special else { return text }
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "'", with: "\\'")
        return "\"" + escaped + "\""
    }
}
