import Basics
import Inventory

/// The servers a list of `ServerSelector`s picks: the one evaluator behind every command that picks servers and
/// the interface's filter.
///
/// What the selectors that are not exclusions pick is joined (`--tag a --tag b` is every server with either tag), in
/// the order they were given, each server once; then the exclusions remove what they name. A selector that names
/// nothing is an error rather than silently nothing: a tag no saved server has, a pattern no saved name matches, an
/// exclusion that removes no server and names no saved one, exclusions that remove every server picked.
public struct ServerSelection: Sendable, Equatable {
    /// One server picked.
    public enum Pick: Sendable, Equatable {
        /// A saved server.
        case saved(Server)
        /// A word that names no saved server, taken as a host (`[user@]host[:port]`): only where the command takes
        /// unsaved hosts.
        case host(String)

        /// The saved server's name, or the word.
        public var name: String {
            switch self {
            case .saved(let server): return server.name
            case .host(let word): return word
            }
        }
    }

    /// Every saved server (`--all`).
    public var all: Bool
    /// The selectors, exclusions among them.
    public var selectors: [ServerSelector]

    public init(all: Bool = false, selectors: [ServerSelector] = []) {
        self.all = all
        self.selectors = selectors
    }

    /// Whether anything picks servers (`--all`, or a selector that is not an exclusion).
    public var picksAny: Bool { all || selectors.contains { !$0.isExclusion } }

    /// Whether the selection could pick more than one server: `--all`, several selectors, a tag, a pattern or an
    /// exclusion; one plain name is one server.
    public var isMany: Bool {
        if all || selectors.count > 1 { return true }
        guard let only = selectors.first else { return false }
        if case .name(let pattern) = only, pattern.isLiteral { return false }
        return true
    }

    /// The picks among `servers` (the saved servers, in the order lists show them). `hosts`: a name no saved
    /// server has is a host (`exec`, `net`, `check`), else an error; a range stands for its names either way
    /// (`web[01-20]` is web01 … web20, saved or not, where hosts are taken). With no selector that picks, every
    /// saved server when `defaultAll`, else `.nothingSelected`.
    public func resolve(_ servers: [Server], hosts: Bool, defaultAll: Bool) throws(SelectionProblem) -> [Pick] {
        var exact: [String: Server] = [:]
        var folded: [String: Server] = [:]
        for server in servers {
            exact[server.name] = server
            if folded[server.name.lowercased()] == nil { folded[server.name.lowercased()] = server }
        }
        func saved(_ name: String) -> Server? { exact[name] ?? folded[name.lowercased()] }

        var picks: [Pick] = []
        var seen = Set<String>()
        func add(_ pick: Pick) {
            let key: String
            switch pick {
            case .saved(let server): key = "saved\u{0}" + server.name
            case .host(let word): key = "host\u{0}" + word
            }
            if seen.insert(key).inserted { picks.append(pick) }
        }
        let including = selectors.filter { !$0.isExclusion }
        if all || (including.isEmpty && defaultAll) { servers.forEach { add(.saved($0)) } }
        if !all && including.isEmpty && !defaultAll {
            throw SelectionProblem(.nothingSelected, selectors.isEmpty
                ? "Say which servers: names, tag:TAG, a pattern such as web[01-20], --all or a hosts file."
                : "Exclusions alone pick no servers: say which servers to start from (names, tag:TAG, --all).")
        }
        for selector in including {
            switch selector {
            case .tag(let tag):
                let tagged = servers.filter { selector.matches($0) }
                if tagged.isEmpty {
                    throw SelectionProblem(.noMatch, "No saved server has the tag '\(HostAddress.shown(tag))'.")
                }
                tagged.forEach { add(.saved($0)) }
            case .name(let pattern) where saved(pattern.text) != nil:
                // A name saved before brackets were the selectors' (`odd[1]`) is itself.
                add(.saved(saved(pattern.text)!))
            case .name(let pattern):
                let listed: [String]?
                do { listed = try pattern.expanded() } catch {
                    throw SelectionProblem(.malformed, "'\(HostAddress.shown(pattern.text))': \(error.reason).")
                }
                if let listed {
                    var found = false
                    for name in listed {
                        if let server = saved(name) {
                            add(.saved(server))
                            found = true
                        } else if hosts {
                            add(.host(name))
                            found = true
                        }
                    }
                    if !found {
                        throw SelectionProblem(.noMatch, pattern.isLiteral
                            ? "No saved server is named '\(HostAddress.shown(pattern.text))' (see essh servers list)."
                            : "'\(HostAddress.shown(pattern.text))' names no saved server (see essh servers list).")
                    }
                } else {
                    let matching = servers.filter { selector.matches($0) }
                    if matching.isEmpty {
                        throw SelectionProblem(.noMatch, """
                            '\(HostAddress.shown(pattern.text))' matches no saved server's name (see essh servers list).
                            """)
                    }
                    matching.forEach { add(.saved($0)) }
                }
            case .not:
                break
            }
        }
        for exclusion in selectors where exclusion.isExclusion {
            let before = picks.count
            picks.removeAll { pick in
                switch pick {
                case .saved(let server): return exclusion.matches(server)
                case .host(let word): return exclusion.matches(host: word)
                }
            }
            if picks.count == before && !servers.contains(where: { exclusion.matches($0) }) {
                throw SelectionProblem(.noMatch, """
                    '\(HostAddress.shown(exclusion.text))' excludes nothing: no saved server or chosen host is \
                    \(Self.named(exclusion)).
                    """)
            }
            if picks.isEmpty && before > 0 {
                // Nothing left to run on or list: said, not a run on no server.
                throw SelectionProblem(.noMatch, """
                    '\(HostAddress.shown(exclusion.text))' leaves no server: it removes every one the selectors picked.
                    """)
            }
        }
        return picks
    }

    /// Whether `server` is among what the selectors pick, without errors (the interface's filter, which narrows
    /// as the person types): no selector that picks means every server; exclusions remove.
    public func contains(_ server: Server) -> Bool {
        // One pass, no allocation: the filter runs this for every saved server on every key.
        var anyIncluding = false, picked = all
        for selector in selectors {
            if selector.isExclusion {
                if selector.matches(server) { return false }
            } else {
                anyIncluding = true
                if !picked && selector.matches(server) { picked = true }
            }
        }
        return picked || !anyIncluding
    }

    /// How an exclusion's words are said in "no saved server or chosen host is …".
    private static func named(_ exclusion: ServerSelector) -> String {
        guard case .not(let inner) = exclusion else { return "named so" }
        switch inner {
        case .tag(let tag): return "tagged '\(HostAddress.shown(tag))'"
        case .name(let pattern) where pattern.isLiteral: return "named '\(HostAddress.shown(pattern.text))'"
        default: return "matched by it"
        }
    }
}
