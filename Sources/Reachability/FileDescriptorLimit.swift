import Foundation
import Glibc

/// The process's open-file limit, which bounds how many checks can be in flight.
public enum FileDescriptorLimit {
    /// Raises the soft RLIMIT_NOFILE to the hard limit (capped by the kernel's nr_open) and returns the new soft
    /// limit; on failure returns the soft limit unchanged.
    @discardableResult
    public static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        var wanted = limit.rlim_max
        if wanted == rlim_t.max { wanted = rlim_t(kernelMaximum()) }
        if wanted > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return Int(wanted) }
        }
        return Int(limit.rlim_cur)
    }

    /// The current soft limit.
    public static var current: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return limit.rlim_cur == rlim_t.max ? kernelMaximum() : Int(limit.rlim_cur)
    }

    private static func kernelMaximum() -> Int {
        let text = (try? String(contentsOfFile: "/proc/sys/fs/nr_open", encoding: .utf8)) ?? ""
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 1_048_576
    }
}
