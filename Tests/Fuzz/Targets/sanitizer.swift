import TextWidth

/// Remote bytes through TextSanitizer (the first byte picks the policy and the tab width, and how the rest is cut
/// into chunks, and its top bit how a lone CR is shown). What it returns is never obeyed by a terminal: no ESC, no C1
/// control, no other control but LF, no tab (expanded), no bidirectional override; no CR either, but under
/// `carriageReturn: .overwrite` lone CRs, one at a time and never before LF; and however the stream is cut, the text is
/// the same.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = FuzzInput(data, size).bytes
    let control = input.first ?? 0
    let stream = Array(input.dropFirst())
    let policy: TextSanitizer.EscapePolicy = control & 1 == 0 ? .visible : .dropStyling
    let tabWidth = Int(control >> 1) % 9
    let carriageReturn: TextSanitizer.CarriageReturn = control & 0x80 == 0 ? .lineBreak : .overwrite
    let lone = carriageReturn == .overwrite

    var whole = TextSanitizer(tabWidth: tabWidth, policy: policy, carriageReturn: carriageReturn)
    let once = whole.feed(stream) + whole.finish()
    checkSafe(once, loneCR: lone)
    if lone {
        let scalars = Array(once.unicodeScalars)
        for (i, scalar) in scalars.enumerated() where scalar == "\r" {
            require(i + 1 < scalars.count && scalars[i + 1] != "\r" && scalars[i + 1] != "\n",
                    "CR not alone in \(once.debugDescription)")
        }
    }

    var split = TextSanitizer(tabWidth: tabWidth, policy: policy, carriageReturn: carriageReturn)
    var pieces = ""
    for chunk in FuzzInput.chunks(stream, seed: control) {
        let piece = split.feed(chunk)
        checkSafe(piece, loneCR: lone)
        pieces += piece
    }
    pieces += split.finish()
    require(pieces == once, "chunked \(pieces.debugDescription)\nwhole   \(once.debugDescription)")

    // What is safe stays as it is: sanitising the output again changes nothing.
    var again = TextSanitizer(policy: policy, carriageReturn: carriageReturn)
    require(again.feed(once) + again.finish() == once, "sanitising twice changes \(once.debugDescription)")
    _ = DisplayWidth.of(once)
    return 0
}

private func checkSafe(_ text: String, loneCR: Bool) {
    for scalar in text.unicodeScalars {
        let v = scalar.value
        require(v == 0x0A || (loneCR && v == 0x0D) || (v >= 0x20 && v != 0x7F && !(0x80...0x9F).contains(v)),
                "control U+\(String(v, radix: 16)) in \(text.debugDescription)")
        require(!(0x202A...0x202E).contains(v) && !(0x2066...0x2069).contains(v),
                "bidirectional override U+\(String(v, radix: 16))")
    }
}
