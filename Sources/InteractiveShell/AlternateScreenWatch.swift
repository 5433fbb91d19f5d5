/// Watches what a program writes to the terminal for a switch to the alternate screen (`ESC [ ? 1049 h`, `?1047h`,
/// `?47h`), which full-screen programs (vi, less, htop) make and undo when they end. A program that never switched
/// leaves its output on the normal screen, where the person may want to read it before eSSH draws over it. Pure; fed
/// chunk by chunk (a sequence cut between chunks is still seen).
public struct AlternateScreenWatch: Sendable, Equatable {
    /// Whether the alternate screen was switched to at any point.
    public private(set) var used = false
    private var state = State.text
    private var parameters: [UInt8] = []

    private enum State: Sendable, Equatable { case text, escape, bracket, private_ }

    /// Watching from the start of a program's output.
    public init() {}

    /// Looks at the next bytes the program wrote.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        guard !used else { return }
        for byte in bytes {
            switch state {
            case .text:
                if byte == 0x1B { state = .escape }
            case .escape:
                state = byte == UInt8(ascii: "[") ? .bracket : byte == 0x1B ? .escape : .text
            case .bracket:
                parameters.removeAll(keepingCapacity: true)
                state = byte == UInt8(ascii: "?") ? .private_ : byte == 0x1B ? .escape : .text
            case .private_:
                if (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ";") {
                    if parameters.count < 32 { parameters.append(byte) } else { state = .text }
                    continue
                }
                if byte == UInt8(ascii: "h") {
                    let modes = parameters.split(separator: UInt8(ascii: ";")).map { String(decoding: $0, as: UTF8.self) }
                    if modes.contains(where: { $0 == "1049" || $0 == "1047" || $0 == "47" }) {
                        used = true
                        return
                    }
                }
                state = byte == 0x1B ? .escape : .text
            }
        }
    }

    /// `feed` for an array (tests).
    public mutating func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed($0) }
    }
}
