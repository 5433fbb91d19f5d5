/// A bounded byte buffer between a channel and a local descriptor: bytes are appended at the end and taken from the
/// front; a full buffer is the back-pressure (the relay stops reading that side, so the channel's window or the
/// local socket's buffer fills, and the sender waits). The storage is allocated once and never grows.
final class RelayBuffer {
    let capacity: Int
    private let storage: UnsafeMutableRawPointer
    private var start = 0
    private var end = 0

    init(capacity: Int) {
        self.capacity = capacity
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Bytes waiting to be taken.
    var count: Int { end - start }
    var isEmpty: Bool { start == end }
    /// Bytes that may be appended now (the data is moved to the front when that makes room).
    var freeSpace: Int { capacity - count }

    /// The waiting bytes, to write out; call `consumed` with what was taken.
    var readable: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage + start, count: end - start) }

    /// Room for `freeSpace` bytes at the end, to read into; call `produced` with what was put there.
    func writable() -> UnsafeMutableRawBufferPointer {
        // Move the waiting bytes to the front when the end is reached, or when they are few (a cheap move).
        if start > 0 && (end == capacity || count <= capacity / 2) {
            storage.copyMemory(from: storage + start, byteCount: end - start)
            end -= start
            start = 0
        }
        return UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end)
    }

    func produced(_ n: Int) {
        precondition(n >= 0 && end + n <= capacity, "RelayBuffer overfilled")
        end += n
    }

    func consumed(_ n: Int) {
        precondition(n >= 0 && n <= count, "RelayBuffer over-consumed")
        start += n
        if start == end {
            start = 0
            end = 0
        }
    }
}
