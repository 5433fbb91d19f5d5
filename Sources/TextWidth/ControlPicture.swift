/// How the sanitiser family shows a control it will not let act: one vocabulary for `TextSanitizer` (remote text in
/// the interface's cells) and `TerminalGuard` (remote bytes on the person's own terminal), so a neutralised
/// sequence reads the same in both, e.g. `␛]0;title␇`.
enum ControlPicture {
    /// `␛`: ESC, shown at the start of every sequence that is shown instead of obeyed.
    static let escape: UInt32 = 0x241B

    /// The Unicode control picture of a C0 control (0x00–0x1F) or DEL (0x7F): NUL `␀`, BEL `␇`, ESC `␛`, DEL `␡`.
    static func of(_ control: UInt32) -> UInt32 { control == 0x7F ? 0x2421 : 0x2400 + control }

    /// The 7-bit form of a C1 control (U+0080–U+009F) is ESC followed by this character: U+009B (CSI) is `ESC [`,
    /// U+009D (OSC) `ESC ]`, so a C1 control is shown as `␛[`, `␛]`.
    static func sevenBitFinal(ofC1 value: UInt32) -> UInt32 { value - 0x40 }
}
