/// One `LocalForward`, `RemoteForward` or `DynamicForward` line that applies to a host, as ssh_config wrote it. Read,
/// not judged: the Forwarding module's parser (the one `-L`/`-R`/`-D` and saved tunnels follow) decides what it means,
/// in Operations' `SSHConfigForwards`.
public struct SSHConfigForward: Sendable, Equatable {
    /// The keyword.
    public enum Kind: String, Sendable, CaseIterable {
        case local = "LocalForward"
        case remote = "RemoteForward"
        case dynamic = "DynamicForward"

        /// The kind a lowercased ssh_config keyword names, if any.
        init?(keyword: String) {
            guard let kind = Self.allCases.first(where: { $0.rawValue.lowercased() == keyword }) else { return nil }
            self = kind
        }
    }

    /// Which forward.
    public var kind: Kind
    /// Its arguments as split (`8080`, `db:5432`).
    public var arguments: [String]
    /// Its line.
    public var location: SSHConfigLocation

    /// A forward line.
    public init(kind: Kind, arguments: [String], location: SSHConfigLocation) {
        self.kind = kind
        self.arguments = arguments
        self.location = location
    }

    /// The line as ssh_config's words: `LocalForward 8080 db:5432`.
    public var text: String { ([kind.rawValue] + arguments).joined(separator: " ") }
}

/// What ssh_config's forward lines come to for one host: each line that applies, in order, unless the first
/// `ClearAllForwardings` obtained says yes (then none, as ssh clears them after reading the files).
struct SSHConfigForwardLines {
    private(set) var lines: [SSHConfigForward] = []
    /// The first `ClearAllForwardings` obtained, if it said yes.
    private(set) var clearedBy: SSHConfigLocation?
    private var clearDecided = false

    /// Takes one directive's keyword (lowercased) and arguments; false when the keyword is not about forwards.
    mutating func take(_ keyword: String, _ arguments: [String], location: SSHConfigLocation) -> Bool {
        if let kind = SSHConfigForward.Kind(keyword: keyword) {
            lines.append(SSHConfigForward(kind: kind, arguments: arguments, location: location))
            return true
        }
        guard keyword == "clearallforwardings" else { return false }
        if !clearDecided {
            clearDecided = true
            // ssh's flag words: yes and true clear.
            if let word = arguments.first?.lowercased(), word == "yes" || word == "true" { clearedBy = location }
        }
        return true
    }

    /// The lines that stand: none after `ClearAllForwardings yes`.
    var result: [SSHConfigForward] { clearedBy == nil ? lines : [] }
}
