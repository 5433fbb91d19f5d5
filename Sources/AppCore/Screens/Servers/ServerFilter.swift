import Inventory
import Operations

/// The Servers screen's filter bar, read once per change of its text. Its words written as selectors — `tag:web`,
/// `web[01-20]`, `db*`, `!tag:prod`, `!web3` — pick servers as every command's selectors do (Operations'
/// `ServerSelector` and `ServerSelection`: several tags are their union, `!` leaves out). Every other word must match
/// the server fuzzily (`FuzzyMatch`: `wb1` finds `web1`) in its name, its address (`user@host:port`) or one of its
/// tags, or appear in its note or OS as typed; the score ranks what is left, the best match first. A word that looks
/// like a selector but cannot be read as one (`web[5-1]`) is such a word, and matches next to nothing.
struct ServerFilter {
    /// The words written as selectors.
    let selection: ServerSelection
    /// The other words, each matched on its own.
    private(set) var words: [(fuzzy: FuzzyMatch.Text, plain: String)] = []

    init(_ text: String) {
        var selectors: [ServerSelector] = []
        for part in text.split(separator: " ") {
            let word = String(part)
            if ServerSelector.isSelectorSyntax(word), let read = try? ServerSelector.list(word) {
                selectors += read
            } else {
                words.append((FuzzyMatch.Text(word), word.lowercased()))
            }
        }
        selection = ServerSelection(selectors: selectors)
    }

    /// Nothing to filter by.
    var isEmpty: Bool { selection.selectors.isEmpty && words.isEmpty }

    /// Whether free text ranks the servers (else they keep the list's order).
    var ranks: Bool { !words.isEmpty }

    /// What a server offers the free words, prepared once per change of the servers.
    struct Keys: Sendable {
        var name: FuzzyMatch.Text
        var address: FuzzyMatch.Text
        var tags: [FuzzyMatch.Text]
        /// Note and OS, lowercased, matched as typed.
        var rest: String

        init(_ server: Server, address: String) {
            name = FuzzyMatch.Text(server.name)
            self.address = FuzzyMatch.Text(address)
            tags = server.tags.map(FuzzyMatch.Text.init)
            rest = (server.note + " " + server.os.rawValue).lowercased()
        }
    }

    /// The server's score, or nil when the filter leaves it out: the selectors pick, then each free word must match
    /// (a match in the name counts double).
    func score(_ server: Server, keys: Keys) -> Int? {
        if !selection.selectors.isEmpty && !selection.contains(server) { return nil }
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
