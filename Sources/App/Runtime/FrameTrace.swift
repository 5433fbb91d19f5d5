import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TUIKit

/// Opt-in frame diagnostics: with `ESSH_FRAME_TRACE=/path/file` set, appends one line per drawn frame,
/// `<CLOCK_MONOTONIC ns> <cells changed since the previous frame> <1 once the servers are loaded, else 0>`,
/// to that file (created 0600, opened once). The timestamps share a clock with other processes' monotonic
/// clocks (Python's `time.monotonic_ns()`), so a script can measure keypress-to-frame latency from outside.
/// Without the variable it costs one nil check per frame.
final class FrameTrace {
    private let descriptor: Int32
    private var previous: Buffer?

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// The trace `ESSH_FRAME_TRACE` asks for (nil when unset or empty), or, when its file cannot be opened, no
    /// trace and a notice for the status line: a diagnostic must never keep the interface from starting, and
    /// stderr is the screen by then.
    static func from(environment: [String: String]) -> (trace: FrameTrace?, notice: String?) {
        guard let path = environment["ESSH_FRAME_TRACE"], !path.isEmpty else { return (nil, nil) }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            return (nil, "ESSH_FRAME_TRACE: cannot open \(path) (\(reason)); frame tracing is off.")
        }
        return (FrameTrace(descriptor: fd), nil)
    }

    deinit { close(descriptor) }

    /// The current CLOCK_MONOTONIC reading in nanoseconds.
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Records the frame just handed to the terminal.
    func drew(_ buffer: Buffer, loaded: Bool) {
        let time = Self.monotonicNanoseconds()
        let changed = Self.changedCells(from: previous, to: buffer)
        previous = buffer
        let line = "\(time) \(changed) \(loaded ? 1 : 0)\n"
        // A failed write only loses a diagnostic line; the interface goes on.
        _ = line.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count - 1) }
    }

    /// Cells that differ between two frames; every cell when the size changed or there was no frame before.
    static func changedCells(from old: Buffer?, to new: Buffer) -> Int {
        guard let old, old.size == new.size else { return new.width * new.height }
        var count = 0
        for y in 0..<new.height {
            for x in 0..<new.width where old[x, y] != new[x, y] { count += 1 }
        }
        return count
    }
}
