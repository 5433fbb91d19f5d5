import Inventory

/// The Servers screen's filter: each `tag:NAME` word keeps only servers tagged NAME exactly; the rest of the text
/// keeps servers whose name, host, user, OS, note or a tag contains it (case-insensitive).
enum ServerFilter {
    static func matches(_ server: Server, _ filter: String) -> Bool {
        var rest: [Substring] = []
        for word in filter.lowercased().split(separator: " ") {
            guard word.hasPrefix("tag:") else {
                rest.append(word)
                continue
            }
            let tag = word.dropFirst(4)
            if !tag.isEmpty && !server.tags.contains(where: { $0.lowercased() == tag }) { return false }
        }
        let needle = rest.joined(separator: " ")
        guard !needle.isEmpty else { return true }
        let fields = [server.name, server.host, server.user ?? "", server.os.rawValue, server.note] + server.tags
        return fields.contains { $0.lowercased().contains(needle) }
    }
}
