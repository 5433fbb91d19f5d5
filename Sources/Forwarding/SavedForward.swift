import Foundation

/// A forward as a server keeps it (`essh servers edit db1 --forward L:5432:localhost:5432`, the inventory, the
/// export): the option's letter, a colon, then exactly what `-L`, `-R` or `-D` takes. Read by the one parser the
/// command line's `-L`/`-R`/`-D` use, so a saved tunnel and a typed one follow the same rule.
extension ForwardSpecParser {
    /// The forms a saved forward takes, for messages.
    public static let savedUsage = "L:[bind:]port:host:hostport, R:[bind:]port:host:hostport or D:[bind:]port"

    /// `text` in the saved form (`L:5432:localhost:5432`, `D:1080`, `R:8080:localhost:80`); the letter may be
    /// lower case.
    public static func parseSaved(_ text: String) throws(ForwardError) -> ForwardSpec {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let letter = trimmed.first, trimmed.dropFirst().first == ":",
              let kind = ForwardSpec.Kind(rawValue: letter.uppercased())
        else {
            throw ForwardError(.badSpec, "“\(trimmed)” is not a forward: give \(savedUsage) (the letter is ssh's "
                               + "option: -L, -R, -D).")
        }
        return try parse(kind, String(trimmed.dropFirst(2)))
    }
}

extension ForwardSpec {
    /// The forward in the saved form, spelled one way (`L:5432:localhost:5432`, `D:[::1]:1080`): two spellings of
    /// one forward are saved as the same text.
    public var savedText: String {
        "\(kind.rawValue):" + description.dropFirst(3)
    }
}
