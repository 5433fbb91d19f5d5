import Foundation
import NetParsers

/// How `essh parse` and `essh net` print what a parser read: a table or the JSON contract on stdout, warnings on
/// stderr (at most 20, then a count).
enum NetOutput {
    static let shownWarnings = 20

    static func write(_ items: ParsedItems, json: Bool, source: String) {
        warn(items.warnings, source: source)
        let bytes = json ? items.json : Array(TableFormatter().render(items.table).utf8)
        TerminalOutput.write(bytes: bytes)
    }

    /// The parse's warnings on stderr, at most `shownWarnings`, then a count.
    static func warn(_ warnings: [String], source: String) {
        for warning in warnings.prefix(shownWarnings) { writeLine("warning: \(source): \(warning)") }
        if warnings.count > shownWarnings {
            writeLine("warning: \(source): \(warnings.count - shownWarnings) more lines skipped")
        }
    }

    private static func writeLine(_ line: String) {
        TerminalOutput.writeError(line + "\n")
    }
}
