import Basics

/// A server's jump hosts as the person writes them (`--jump`, the form's Jump field, ssh_config's `ProxyJump`):
/// hops separated by commas, nearest first, each a saved server's name or `[user@]host[:port]` (or
/// `ssh://[user@]host[:port]`); empty or `none` for a direct connection. The one syntax rule, for `servers add/edit`,
/// imports, the form and `-J`; what each hop names (a saved server, a Host of ~/.ssh/config, a host) is decided when
/// connecting, by Operations' `JumpHosts`.
public enum JumpList {
    /// The most hops a chain may have, its hops' own jump hosts included.
    public static let maxHops = 8

    /// One hop as written, and its reading as an address (a saved server's name reads as a host).
    public struct Hop: Sendable, Equatable {
        /// The hop as written, trimmed.
        public var text: String
        /// `text` read as `[user@]host[:port]`.
        public var address: HostAddress
    }

    /// Whether `text` means a direct connection: empty, blank or `none` (as OpenSSH's `ProxyJump none`).
    public static func isDirect(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty || trimmed.lowercased() == "none"
    }

    /// The hops of `text`, nearest first (none for a direct connection), or why it is no jump chain: an empty hop,
    /// a hop that is no address (a bad port, spaces), `none` inside a chain, more than `maxHops` hops.
    public static func hops(_ text: String) -> Result<[Hop], Problem> {
        if isDirect(text) { return .success([]) }
        let shown = ControlCharacters.visible(text)
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count > maxHops {
            return .failure(Problem("The jump chain '\(shown)' has \(parts.count) hops; eSSH goes through at most "
                                    + "\(maxHops)."))
        }
        var hops: [Hop] = []
        for (index, part) in parts.enumerated() {
            let which = parts.count == 1 ? "The jump host" : "Hop \(index + 1) of the jump chain '\(shown)'"
            if part.isEmpty {
                return .failure(Problem("\(which) is empty: separate the hops with single commas "
                                        + "(bastion,gw2) and end with a hop, not a comma."))
            }
            if part.lowercased() == "none" {
                return .failure(Problem("\(which) is 'none': none stands alone, for a direct connection."))
            }
            do {
                hops.append(Hop(text: part, address: try HostAddress(parsing: part)))
            } catch {
                return .failure(Problem("\(which), '\(ControlCharacters.visible(part))', is not a jump host: "
                                        + "\(error.reason). Give a saved server's name or [user@]host[:port]."))
            }
        }
        return .success(hops)
    }

    /// Why a text is no jump chain: a sentence saying what to write instead.
    public struct Problem: Error, Sendable, Equatable {
        /// The sentence.
        public let message: String

        init(_ message: String) { self.message = message }
    }
}
