/// Keeps header fields to one line: a value with a line break or any other control character could start a new
/// header (`Bcc:`) or end the header block, so it is refused rather than cleaned.
public enum HeaderSafety {
    /// Throws `headerInjection` naming `field` when `value` holds a control character (C0, DEL, C1) or a Unicode
    /// line or paragraph separator.
    public static func check(_ value: String, field: String) throws(MailError) {
        guard let bad = value.unicodeScalars.first(where: isForbidden) else { return }
        let what: String
        switch bad.value {
        case 0x0A: what = "a line break (LF)"
        case 0x0D: what = "a line break (CR)"
        case 0x09: what = "a tab"
        case 0x2028, 0x2029: what = "a line separator"
        default: what = "the control character U+" + String(bad.value, radix: 16, uppercase: true)
        }
        throw MailError(.headerInjection, "", """
            The \(field) field contains \(what); mail headers must be one line of text. \
            Remove it and try again.
            """)
    }

    /// `text` made one line for a header eSSH writes itself (a default Subject): every forbidden character becomes a
    /// space. What flows in from elsewhere (a server's name, the command) is cleaned, never a reason to refuse the
    /// user's mail; what the user typed into a header is checked with `check` and refused instead.
    public static func oneLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { isForbidden($0) ? " " : $0 }))
    }

    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || v == 0x7F || (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029
    }
}
