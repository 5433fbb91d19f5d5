/// What `--resume` does with a partial copy, decided from what is there and never by appending blindly: the partial
/// must be no longer than the source, and then its whole content must be proven equal to the source's first bytes
/// (`ResumeProof`) before anything is appended to it.
public enum ResumeDecision: Sendable, Equatable {
    /// No partial copy (or an empty one): copy from the start.
    case fresh
    /// The partial is a proven prefix of the source: copy from this byte on.
    case append(from: Int64)
    /// The partial cannot be continued (`reason` says why, e.g. "differs at byte 1,048,577"): copy from the start.
    case restart(reason: String)
    /// The partial already holds the whole source: only the checks and the rename into place are left.
    case complete

    /// Before any byte is compared: nothing to prove (`fresh`), a partial longer than the source (`restart`), or
    /// the decision to take once the partial is proven a prefix (`append` or `complete`).
    public static func decide(partialSize: Int64?, sourceSize: Int64) -> ResumeDecision {
        guard let partialSize, partialSize > 0 else { return .fresh }
        if partialSize > sourceSize {
            return .restart(reason: "the partial copy (\(grouped(partialSize)) bytes) is longer than the source "
                            + "(\(grouped(sourceSize)) bytes): the source changed")
        }
        return partialSize == sourceSize ? .complete : .append(from: partialSize)
    }

    /// The decision once the partial's first `partialSize` bytes were compared with the source's: `differsAt` is the
    /// first byte (counted from 1) that differs, or 0 when only digests were compared and they differ; nil when equal.
    public static func proven(_ candidate: ResumeDecision, differsAt: Int64?, by proof: ResumeProof) -> ResumeDecision {
        guard let differsAt else { return candidate }
        if differsAt > 0 { return .restart(reason: "the partial copy differs from the source at byte \(grouped(differsAt))") }
        return .restart(reason: "the partial copy differs from the source's first bytes (\(proof.words))")
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

/// How a resumed copy's kept prefix was proven equal to the source (said in `essh cp --json` as `resume_proof`).
public enum ResumeProof: String, Sendable, Equatable {
    /// sha256 of the prefix on both sides, the server's by a command (`head -c N | sha256sum`).
    case sha256 = "sha256"
    /// The server allows no command: the prefix was read back from it and compared byte for byte.
    case readBack = "read-back"

    var words: String {
        switch self {
        case .sha256: return "their sha256 digests differ"
        case .readBack: return "read back and compared"
        }
    }
}
