import TextWidth

/// What a parser recognised: the items, the layout it read, and a warning for each part it could not read.
public struct ParseResult<Item: Sendable>: Sendable {
    /// The recognised items in input order.
    public var items: [Item]
    /// The layout the text was read as.
    public var format: InputFormat
    /// One sentence per line or block that was skipped or only partly understood.
    public var warnings: [String]

    /// A result with the given parts. Warnings may quote the input and are printed to a terminal: their control
    /// characters are shown (`␛`), never obeyed.
    public init(items: [Item], format: InputFormat, warnings: [String] = []) {
        self.items = items
        self.format = format
        self.warnings = warnings.map(TextSanitizer.line)
    }
}
