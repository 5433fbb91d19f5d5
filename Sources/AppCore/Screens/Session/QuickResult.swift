import NetParsers

/// A quick command's outcome: the command that answered and its output as a table, or why there is none.
package struct QuickResult: Sendable, Equatable {
    package var kind: DataKind
    package var commandLine: String
    package var table: Table?
    package var error: String?

    package init(kind: DataKind, commandLine: String, table: Table?, error: String?) {
        self.kind = kind
        self.commandLine = commandLine
        self.table = table
        self.error = error
    }
}
