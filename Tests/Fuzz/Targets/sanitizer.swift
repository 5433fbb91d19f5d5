import TextWidth

/// Remote bytes through TextSanitizer (the first byte picks the policy and the tab width, and how the rest is cut
/// into chunks). What it returns is never obeyed by a terminal: no ESC, no C1 control, no CR, no other control but
/// LF, no tab (expanded), no bidirectional override; and however the stream is cut, the text is the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size).bytes
    let control = input.first ?? 0
    let stream = Array(input.dropFirst())
    let policy: TextSanitizer.EscapePolicy = control & 1 == 0 ? .visible : .dropStyling
    let tabWidth = Int(control >> 1) % 9

    var whole = TextSanitizer(tabWidth: tabWidth, policy: policy)
    let once = whole.feed(stream) + whole.finish()
    checkSafe(once)

    var split = TextSanitizer(tabWidth: tabWidth, policy: policy)
    var pieces = ""
    for chunk in FuzzInput.chunks(stream, seed: control) {
        let piece = split.feed(chunk)
        checkSafe(piece)
        pieces += piece
    }
    pieces += split.finish()
    require(pieces == once, "chunked \(pieces.debugDescription)\nwhole   \(once.debugDescription)")

    // What is safe stays as it is: sanitising the output again changes nothing.
    require(TextSanitizer.sanitize(once, policy: policy) == once,
            "sanitising twice changes \(once.debugDescription)")
    _ = DisplayWidth.of(once)
    return 0
}

private func checkSafe(_ text: String) {
    for scalar in text.unicodeScalars {
        let v = scalar.value
        require(v == 0x0A || (v >= 0x20 && v != 0x7F && !(0x80...0x9F).contains(v)),
                "control U+\(String(v, radix: 16)) in \(text.debugDescription)")
        require(!(0x202A...0x202E).contains(v) && !(0x2066...0x2069).contains(v),
                "bidirectional override U+\(String(v, radix: 16))")
    }
}
