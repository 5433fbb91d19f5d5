/// Bytes kept up to a limit, the rest only counted: a command's output held for mailing, saving or piping (the
/// session's capture, `essh exec --mail`) without growing without bound.
public struct CappedBytes: Sendable, Equatable {
    /// Bytes kept at most.
    public let limit: Int
    /// What was kept: the first `limit` bytes.
    public private(set) var bytes: [UInt8] = []
    /// Bytes that arrived beyond `limit`.
    public private(set) var cut = 0

    /// An empty buffer keeping at most `limit` bytes.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Keeps what still fits of `chunk` and counts the rest.
    public mutating func append(_ chunk: some Collection<UInt8>) {
        let room = max(0, limit - bytes.count)
        bytes += chunk.prefix(room)
        cut += max(0, chunk.count - room)
    }
}
