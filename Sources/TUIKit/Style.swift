/// A colour from the small palette every backend can show; `.default` is the terminal's own colour.
public enum Color: UInt8, Sendable, Hashable, CaseIterable {
    case `default`, black, red, green, yellow, blue, magenta, cyan, white, gray
}

/// How a cell looks: foreground, background and text attributes.
public struct Style: Sendable, Hashable {
    /// Text attributes a terminal can combine.
    public struct Attributes: OptionSet, Sendable, Hashable {
        /// The attribute bits.
        public let rawValue: UInt8
        /// Wraps a raw attribute mask.
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        /// Bold (or bright) text.
        public static let bold = Attributes(rawValue: 1 << 0)
        /// Dim (faint) text.
        public static let dim = Attributes(rawValue: 1 << 1)
        /// Foreground and background swapped; the monochrome way to show a selection.
        public static let reverse = Attributes(rawValue: 1 << 2)
        /// Underlined text.
        public static let underline = Attributes(rawValue: 1 << 3)
    }

    /// Foreground colour.
    public var fg: Color
    /// Background colour.
    public var bg: Color
    /// Text attributes.
    public var attributes: Attributes

    /// A style; every part defaults to the terminal's own look.
    public init(fg: Color = .default, bg: Color = .default, attributes: Attributes = []) {
        self.fg = fg
        self.bg = bg
        self.attributes = attributes
    }

    /// The terminal's default look.
    public static let plain = Style()

    /// This style with `attributes` added.
    public func adding(_ extra: Attributes) -> Style {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }

    /// A short readable description, used by style maps in golden screens.
    public var summary: String {
        var parts: [String] = []
        if fg != .default { parts.append("fg=\(fg)") }
        if bg != .default { parts.append("bg=\(bg)") }
        if attributes.contains(.bold) { parts.append("bold") }
        if attributes.contains(.dim) { parts.append("dim") }
        if attributes.contains(.reverse) { parts.append("reverse") }
        if attributes.contains(.underline) { parts.append("underline") }
        return parts.isEmpty ? "plain" : parts.joined(separator: " ")
    }
}
