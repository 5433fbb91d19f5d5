// Shared by every fuzz target (compiled into each target's own module by Tests/Fuzz/fuzz.sh).

/// A broken property: the message goes to stderr and the process stops, so libFuzzer keeps the input as a crash.
func require(_ holds: Bool, _ what: @autoclosure () -> String, file: StaticString = #file, line: UInt = #line) {
    if !holds { fatalError("property broken: \(what())", file: file, line: line) }
}

/// The fuzzer's bytes, with helpers to cut them into fields and chunks.
struct FuzzInput {
    let bytes: [UInt8]

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    }

    /// The bytes cut at each 0xFF (never part of UTF-8, so no text is lost by it), into at most `count` fields;
    /// the last field keeps the rest, 0xFF included. Missing fields are empty.
    func fields(_ count: Int) -> [[UInt8]] {
        var parts = bytes.split(separator: 0xFF, maxSplits: count - 1, omittingEmptySubsequences: false).map(Array.init)
        while parts.count < count { parts.append([]) }
        return parts
    }

    /// Chunk lengths covering `length` bytes, drawn from `seed` (a byte of the input, so the fuzzer steers them):
    /// many 1-byte chunks, some longer, so every split point of a short sequence is tried now and then.
    static func chunkLengths(_ length: Int, seed: UInt8) -> [Int] {
        var state = (UInt64(seed) &* 0x9E37_79B9_7F4A_7C15) | 1
        var lengths: [Int] = []
        var left = length
        while left > 0 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let n = state % 4 == 0 ? 1 + Int((state >> 8) % 64) : 1 + Int((state >> 8) % 3)
            lengths.append(min(n, left))
            left -= min(n, left)
        }
        return lengths
    }

    /// `bytes` cut by `chunkLengths`.
    static func chunks(_ bytes: [UInt8], seed: UInt8) -> [ArraySlice<UInt8>] {
        var start = 0
        return chunkLengths(bytes.count, seed: seed).map { n in
            defer { start += n }
            return bytes[start..<start + n]
        }
    }
}
