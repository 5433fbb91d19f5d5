import CVaultGuard
import Foundation

/// The process-wide protection of a process that holds a vault key in memory (the interface once unlocked, the
/// unlock agent): no core file (RLIMIT_CORE 0) and not dumpable (PR_SET_DUMPABLE 0: no core dump, no ptrace by
/// other processes of the same user, /proc/PID/mem and environ unreadable to them). Not undone when the key is
/// dropped: Linux gives no way to tell whether the key's bytes are gone from every copy the allocator left.
public enum ProcessGuard {
    /// Turns core dumps off and makes the process undumpable; true when both took.
    @discardableResult
    public static func noCoreDumps() -> Bool {
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        let limited = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore) == 0
        return essh_vault_set_undumpable() == 0 && limited
    }

    /// Whether the process may be dumped (false after `noCoreDumps`).
    public static var isDumpable: Bool { essh_vault_is_dumpable() == 1 }
}
