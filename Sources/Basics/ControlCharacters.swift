/// Control characters in text a person typed or a file held (a server's name, a path, an ssh_config value): they
/// have no place there, and once stored they would reach a terminal. C0 controls (NUL, ESC, newline, tab, …), DEL
/// and the C1 controls U+0080–U+009F.
public enum ControlCharacters {
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether `text` holds any.
    public static func contains(_ text: String) -> Bool { text.unicodeScalars.contains(where: isControl) }

    /// `text` with each control character written as `\xHH` (`\n` for a newline, `\t` for a tab), so a message
    /// can show the value without the terminal obeying it.
    public static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where isControl(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
