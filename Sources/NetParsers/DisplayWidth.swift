/// Terminal column width of text without the C library: wide East Asian and emoji scalars take two columns,
/// combining marks and zero-width scalars none. Interface names on Windows can be any Unicode.
public enum DisplayWidth {
    /// The number of terminal columns `s` takes.
    public static func of(_ s: String) -> Int {
        var width = 0
        for scalar in s.unicodeScalars { width += of(scalar) }
        return width
    }

    /// The number of terminal columns one scalar takes (0, 1 or 2).
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) { return 0 }
        if v < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch v {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
