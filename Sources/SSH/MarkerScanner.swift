import Foundation

/// Finds one marker in a stream that arrives in chunks, passing on every byte before it as soon as it is certain
/// not to be the start of the marker: at most the marker's length less one byte is held back at a chunk's end. Bytes
/// after the marker are kept for the caller. Pure: no I/O.
struct MarkerScanner {
    let marker: [UInt8]
    /// The end of the stream so far that could be the start of the marker.
    private var held: [UInt8] = []
    /// Whether the marker was seen.
    private(set) var found = false
    /// What came after the marker (once found).
    private(set) var after: [UInt8] = []

    init(_ marker: [UInt8]) {
        precondition(!marker.isEmpty)
        self.marker = marker
    }

    /// Feeds the next chunk; `emit` gets the bytes before the marker, in order, in one or more pieces.
    mutating func feed(_ chunk: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> Void) {
        if found {
            after.append(contentsOf: chunk)
            return
        }
        if held.isEmpty {
            scan(chunk, emit: emit)
        } else {
            // Rare (a chunk ended with a prefix of the marker): join the small held tail and the chunk.
            let joined = held + Array(chunk)
            held = []
            joined.withUnsafeBytes { scan($0, emit: emit) }
        }
    }

    /// Convenience for byte arrays.
    mutating func feed(_ bytes: [UInt8], emit: (UnsafeRawBufferPointer) -> Void) {
        bytes.withUnsafeBytes { feed($0, emit: emit) }
    }

    /// The stream ended without the marker: what was held back is output after all.
    mutating func flush(emit: (UnsafeRawBufferPointer) -> Void) {
        guard !found, !held.isEmpty else { return }
        held.withUnsafeBytes { emit($0) }
        held = []
    }

    /// Takes the bytes that came after the marker, leaving none.
    mutating func takeAfter() -> [UInt8] {
        defer { after = [] }
        return after
    }

    private mutating func scan(_ bytes: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> Void) {
        guard bytes.count > 0 else { return }
        if let offset = Self.find(marker, in: bytes) {
            if offset > 0 { emit(UnsafeRawBufferPointer(rebasing: bytes[0..<offset])) }
            found = true
            after = Array(bytes[(offset + marker.count)...])
            return
        }
        let keep = Self.partialSuffix(bytes, of: marker)
        if keep < bytes.count { emit(UnsafeRawBufferPointer(rebasing: bytes[0..<(bytes.count - keep)])) }
        if keep > 0 { held = Array(bytes[(bytes.count - keep)...]) }
    }

    /// Where `marker` starts in `bytes`, if it does: memchr to each candidate first byte, then memcmp (glibc's
    /// memmem is a GNU extension Swift's Glibc module does not show).
    static func find(_ marker: [UInt8], in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress, bytes.count >= marker.count else { return nil }
        return marker.withUnsafeBytes { needle -> Int? in
            let last = bytes.count - marker.count
            var offset = 0
            while offset <= last {
                guard let hit = memchr(base + offset, Int32(marker[0]), last - offset + 1) else { return nil }
                let at = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + at, needle.baseAddress!, marker.count) == 0 { return at }
                offset = at + 1
            }
            return nil
        }
    }

    /// The length of the longest end of `bytes` that is a proper start of `marker` (0 when none).
    static func partialSuffix(_ bytes: UnsafeRawBufferPointer, of marker: [UInt8]) -> Int {
        let count = bytes.count
        var start = max(0, count - (marker.count - 1))
        while start < count {
            if bytes[start] == marker[0] {
                var matches = true
                for i in 1..<(count - start) where bytes[start + i] != marker[i] {
                    matches = false
                    break
                }
                if matches { return count - start }
            }
            start += 1
        }
        return 0
    }
}
