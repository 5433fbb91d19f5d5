import Inventory
import Operations

/// The Servers screen's filter, read once per change of its text. Its words written as selectors — `tag:web`,
/// `web[01-20]`, `db*`, `!tag:prod`, `!web3` — pick servers as every command's selectors do (Operations'
/// `ServerSelector` and `ServerSelection`: several tags are their union, `!` leaves out); the other words are text
/// that the name, host, user, OS, note or a tag must contain (case-insensitive). A word that looks like a selector
/// but cannot be read as one (`web[5-1]`) is text, and matches nothing.
struct ServerFilter {
    let selection: ServerSelection
    /// The plain words, joined by spaces, lowercased.
    let needle: String

    init(_ text: String) {
        var selectors: [ServerSelector] = []
        var rest: [Substring] = []
        for word in text.split(separator: " ") {
            if ServerSelector.isSelectorSyntax(String(word)), let read = try? ServerSelector.list(String(word)) {
                selectors += read
            } else {
                rest.append(word)
            }
        }
        selection = ServerSelection(selectors: selectors)
        needle = rest.joined(separator: " ").lowercased()
    }

    func matches(_ server: Server) -> Bool {
        if !selection.selectors.isEmpty && !selection.contains(server) { return false }
        guard !needle.isEmpty else { return true }
        let fields = [server.name, server.host, server.user ?? "", server.os.rawValue, server.note] + server.tags
        return fields.contains { $0.lowercased().contains(needle) }
    }
}
