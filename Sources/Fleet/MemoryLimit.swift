import Foundation
import Glibc

/// The address-space limit (`ulimit -v`, RLIMIT_AS), which bounds how many fleet workers fit: each holds a thread
/// stack and its session's buffers. Measured here (Debian 12, x86_64): an `essh exec --all` with 64 workers uses
/// about 0.7 MiB of address space per worker above a base of about 180 MiB.
public enum MemoryLimit {
    /// Address space one worker is given room for: its 512 KiB stack, guard page and buffers, with a margin.
    public static let perWorker = 1 << 20
    /// Room kept free for everything else (results, output, the database, libraries loading late).
    public static let reserve = 24 << 20

    /// The soft RLIMIT_AS in bytes, nil when unlimited.
    public static var addressSpace: Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_AS.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// The address space this process uses now (VmSize), in bytes.
    public static var inUse: Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("VmSize:") {
            let digits = line.dropFirst(7).filter(\.isNumber)
            return (Int(digits) ?? 0) * 1024
        }
        return 0
    }

    /// With an address-space limit, glibc's per-thread malloc arenas (64 MiB of address space each, up to eight per
    /// core) would use the room up before any real allocation: keep to two. Without a limit nothing changes.
    public static func fitAllocatorToLimit() {
        guard addressSpace != nil else { return }
        _ = glibcMallopt(-8 /* M_ARENA_MAX */, 2)
    }

    /// How many workers fit under the limit (`wanted` when there is none), at least 0.
    public static func workers(_ wanted: Int, limit: Int? = addressSpace, inUse: Int = inUse) -> Int {
        guard let limit else { return wanted }
        return max(0, min(wanted, (limit - inUse - reserve) / perWorker))
    }
}

/// glibc's mallopt(3), which Swift's Glibc module does not export (malloc.h is not in it); a plain C function of two
/// ints, so calling it by its symbol is safe.
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
