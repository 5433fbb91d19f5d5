/// A count with its noun, singular for one and plural otherwise: `1 key`, `2 keys`, `0 servers`. One function, so no
/// message says "1 keys" or "1 other lines".
public enum CountText {
    /// `count` and `noun`, with `plural` (default: `noun` + "s") unless `count` is 1.
    public static func text(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
