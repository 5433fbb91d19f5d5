import Basics
import Foundation
import Inventory

/// One word of the grammar every command that picks servers reads — `essh exec`, `net`, `check`, `servers list` —
/// and the interface's filter:
///
/// - `NAME`: a saved server by name; where the command also takes hosts that are not saved (`exec`, `net`,
///   `check`), a word that names none is a host, `[user@]host[:port]`.
/// - a pattern: names by `*` (any run), `?` (one character) and numeric ranges `web[01-20]`, `db[1,3,5-7]`
///   (Basics' `NamePattern`, as pdsh and ClusterShell write host lists).
/// - `tag:TAG`: the saved servers with that tag.
/// - `!SELECTOR`: not what SELECTOR picks (`!web3`, `!tag:prod`), as `--exclude SELECTOR` says.
///
/// Names, patterns and tags ignore case. A list separates words by commas (not those inside a range's brackets:
/// `web[1,3],db1` is two words).
public enum ServerSelector: Sendable, Equatable {
    /// Saved servers with the tag.
    case tag(String)
    /// Servers by name: one name, or a pattern.
    case name(NamePattern)
    /// Not what the selector picks.
    indirect case not(ServerSelector)

    /// Reads one word. Throws a `.malformed` problem saying how the word is written instead.
    public init(parsing word: String) throws(SelectionProblem) {
        let word = word.trimmingCharacters(in: .whitespaces)
        if word.isEmpty { throw SelectionProblem(.malformed, "An empty selector names no server.") }
        if word.hasPrefix("!") {
            let rest = String(word.dropFirst())
            if rest.isEmpty || rest.hasPrefix("!") {
                throw SelectionProblem(.malformed, """
                    '\(HostAddress.shown(word))': put one ! before a name, a pattern or tag:TAG, e.g. !web3 or !tag:db.
                    """)
            }
            self = .not(try ServerSelector(parsing: rest))
            return
        }
        if word.lowercased().hasPrefix("tag:") {
            let tag = String(word.dropFirst(4))
            if tag.isEmpty {
                throw SelectionProblem(.malformed, "'tag:' needs the tag's name after it, e.g. tag:web.")
            }
            self = .tag(tag)
            return
        }
        do {
            let pattern = try NamePattern(parsing: word)
            _ = try pattern.expanded()  // a range too large to list is refused here, where it was typed
            self = .name(pattern)
        } catch {
            throw SelectionProblem(.malformed, "'\(HostAddress.shown(word))' is not a valid selector: \(error.reason).")
        }
    }

    /// The words of a list as selectors (`web[01-05],!web03 tag:db`).
    public static func list(_ text: String) throws(SelectionProblem) -> [ServerSelector] {
        var selectors: [ServerSelector] = []
        for word in words(text) { selectors.append(try ServerSelector(parsing: word)) }
        return selectors
    }

    /// `text` split at commas outside brackets (`web[1,3],db1`: two words), each word without the spaces around it;
    /// empty words dropped. A command line gives words as separate arguments; the interface's filter splits its
    /// text at spaces first.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var depth = 0
        func end() {
            let word = current.trimmingCharacters(in: .whitespaces)
            if !word.isEmpty { words.append(word) }
            current = ""
        }
        for c in text {
            if c == "[" { depth += 1 }
            if c == "]" { depth = max(0, depth - 1) }
            if depth == 0 && c == "," { end() } else { current.append(c) }
        }
        end()
        return words
    }

    /// Whether a word of free text is written as a selector (`tag:`, `!`, a wildcard or a range), so a filter that
    /// mixes both reads it as one; a plain word is the filter's text to look for.
    public static func isSelectorSyntax(_ word: String) -> Bool {
        if word.hasPrefix("!") || word.lowercased().hasPrefix("tag:") { return true }
        guard let pattern = try? NamePattern(parsing: word) else { return false }
        return !pattern.isLiteral
    }

    /// Whether the selector picks the saved `server` (for `.not`, whether the selector it negates does).
    public func matches(_ server: Server) -> Bool {
        switch self {
        case .tag(let tag): return server.tags.contains { $0.caseInsensitiveCompare(tag) == .orderedSame }
        case .name(let pattern): return pattern.text == server.name || pattern.matches(server.name)
        case .not(let inner): return inner.matches(server)
        }
    }

    /// Whether the selector picks a host that is not saved, by the word it was named with (only names and
    /// patterns can: a host has no tags).
    public func matches(host word: String) -> Bool {
        switch self {
        case .tag: return false
        case .name(let pattern): return pattern.matches(word)
        case .not(let inner): return inner.matches(host: word)
        }
    }

    /// Whether the selector removes servers (`!…`, `--exclude`).
    public var isExclusion: Bool {
        if case .not = self { return true }
        return false
    }

    /// The selector as it is written.
    public var text: String {
        switch self {
        case .tag(let tag): return "tag:" + tag
        case .name(let pattern): return pattern.text
        case .not(let inner): return "!" + inner.text
        }
    }
}
