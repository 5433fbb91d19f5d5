/// The smallest terminal the screens are laid out for, and the message shown instead when it is smaller.
public struct SizeGuard: Sendable {
    /// The minimum size.
    public var minimum: Size

    /// A guard for `minimum` (40x10 by default).
    public init(minimum: Size = Size(width: 40, height: 10)) { self.minimum = minimum }

    /// True when `size` is large enough for the real layout.
    public func fits(_ size: Size) -> Bool { size.width >= minimum.width && size.height >= minimum.height }

    /// The message for a terminal of `size`.
    public func message(for size: Size) -> String {
        "Terminal too small (\(size)). Enlarge it to at least \(minimum)."
    }

    /// Draws the message centred (wrapped to whatever room there is) when `buffer` is too small;
    /// returns false, and draws nothing, when it fits.
    @discardableResult
    public func renderIfTooSmall(into buffer: inout Buffer) -> Bool {
        guard !fits(buffer.size) else { return false }
        buffer.fill(buffer.area)
        let lines = DisplayWidth.wrap(message(for: buffer.size), to: buffer.width)
        let top = max(0, (buffer.height - lines.count) / 2)
        for (i, line) in lines.enumerated() {
            let x = max(0, (buffer.width - DisplayWidth.of(line)) / 2)
            buffer.setString(line, x: x, y: top + i, style: Style(attributes: .bold))
        }
        return true
    }
}
