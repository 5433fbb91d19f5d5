import Inventory
import Operations

/// The Servers screen's filter bar, read once per change of its text. Words written as selectors (`tag:NAME`) keep
/// only the servers they pick; every other word must match the server fuzzily (`FuzzyMatch`: `wb1` finds `web1`)
/// in its name, its address (`user@host:port`) or one of its tags, or appear in its note or OS as typed. The score
/// ranks what is left: the best match first.
struct ServerFilter {
    /// `tag:NAME` words, lowercased: the server must have each tag (any case).
    private(set) var tags: [String] = []
    /// The other words, each matched on its own.
    private(set) var words: [(fuzzy: FuzzyMatch.Text, plain: String)] = []

    init(_ text: String) {
        for word in text.lowercased().split(whereSeparator: { $0 == " " }) {
            if word.hasPrefix("tag:") {
                if word.count > 4 { tags.append(String(word.dropFirst(4))) }
            } else {
                words.append((FuzzyMatch.Text(String(word)), String(word)))
            }
        }
    }

    /// Nothing to filter by.
    var isEmpty: Bool { tags.isEmpty && words.isEmpty }

    /// Whether free text ranks the servers (else they keep the list's order).
    var ranks: Bool { !words.isEmpty }

    /// What a server offers the filter, prepared once per change of the servers.
    struct Keys: Sendable {
        var name: FuzzyMatch.Text
        var address: FuzzyMatch.Text
        var tags: [FuzzyMatch.Text]
        /// Lowercased tags, for `tag:` words.
        var tagWords: [String]
        /// Note and OS, lowercased, matched as typed.
        var rest: String

        init(_ server: Server, address: String) {
            name = FuzzyMatch.Text(server.name)
            self.address = FuzzyMatch.Text(address)
            tags = server.tags.map(FuzzyMatch.Text.init)
            tagWords = server.tags.map { $0.lowercased() }
            rest = (server.note + " " + server.os.rawValue).lowercased()
        }
    }

    /// The server's score, or nil when the filter leaves it out. A match in the name counts double.
    func score(_ keys: Keys) -> Int? {
        for tag in tags where !keys.tagWords.contains(tag) { return nil }
        var total = 0
        for word in words {
            var best = FuzzyMatch.score(word.fuzzy, in: keys.name).map { $0 * 2 }
            for text in [keys.address] + keys.tags {
                if let s = FuzzyMatch.score(word.fuzzy, in: text) { best = max(best ?? s, s) }
            }
            if best == nil && keys.rest.contains(word.plain) { best = 1 }
            guard let best else { return nil }
            total += best
        }
        return total
    }
}
