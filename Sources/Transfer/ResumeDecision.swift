/// What `--resume` does with a partial copy, decided from what is there and never by appending blindly: the partial
/// must be a prefix of the source by size, and its last bytes (up to `comparedLength`) must equal the source's at the
/// same offset.
public enum ResumeDecision: Sendable, Equatable {
    /// No partial copy (or an empty one): copy from the start.
    case fresh
    /// The partial is a prefix of the source: copy from this byte on.
    case append(from: Int64)
    /// The partial cannot be continued (`reason` says why, e.g. "differs at byte 1,048,577"): copy from the start.
    case restart(reason: String)
    /// The partial already holds the whole source: only the checks and the rename into place are left.
    case complete

    /// Bytes compared at the end of the partial, at most.
    public static let comparedLength: Int64 = 64 * 1024

    /// The byte range to read from both files before deciding, for a partial of `partialSize` bytes.
    public static func window(partialSize: Int64) -> Range<Int64> {
        max(0, partialSize - comparedLength)..<max(0, partialSize)
    }

    /// The decision for a partial of `partialSize` bytes (nil: none) and a source of `sourceSize` bytes, given the
    /// bytes of `window(partialSize:)` read from each (`sourceTail` shorter when the source ends earlier).
    public static func decide(partialSize: Int64?, sourceSize: Int64, partialTail: [UInt8],
                              sourceTail: [UInt8]) -> ResumeDecision {
        guard let partialSize, partialSize > 0 else { return .fresh }
        if partialSize > sourceSize {
            return .restart(reason: "the partial copy (\(grouped(partialSize)) bytes) is longer than the source "
                            + "(\(grouped(sourceSize)) bytes): the source changed")
        }
        let start = window(partialSize: partialSize).lowerBound
        let expected = window(partialSize: partialSize).count
        guard partialTail.count == expected else {
            return .restart(reason: "the partial copy could not be read back (\(partialTail.count) of \(expected) "
                            + "bytes)")
        }
        for i in 0..<expected where i >= sourceTail.count || partialTail[i] != sourceTail[i] {
            return .restart(reason: "the partial copy differs from the source at byte \(grouped(start + Int64(i) + 1))")
        }
        return partialSize == sourceSize ? .complete : .append(from: partialSize)
    }

    /// 1048577 as "1,048,577".
    static func grouped(_ n: Int64) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}
