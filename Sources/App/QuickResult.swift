import NetParsers

/// A quick command's outcome: the command that answered and its output as a table, or why there is none.
struct QuickResult: Sendable, Equatable {
    var kind: DataKind
    var commandLine: String
    var table: Table?
    var error: String?
}
