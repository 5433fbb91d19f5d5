import Foundation

/// The test user's processes on the test server (the same machine), found by a marker in their command line, so a
/// test can tell whether a remote command it gave up on is still running. Each test makes its own marker
/// (`RemoteProcesses.marker()`), so tests running in parallel never see each other's commands.
public enum RemoteProcesses {
    /// A word no other test uses, for `exec -a MARKER sleep 300` (the process then shows up as `MARKER 300`).
    public static func marker(_ label: String = "sig") -> String {
        "essh-\(label)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// A remote command line whose process (and, for a shell around it, the shell too) carries `marker`.
    public static func sleeper(_ marker: String, seconds: Int = 300) -> String {
        "exec -a \(marker) sleep \(seconds)"
    }

    /// The pids of `user`'s processes whose command line contains `marker` (`pgrep -u USER -f MARKER`).
    public static func pids(_ marker: String, user: String) -> [Int32] {
        guard let found = try? Spawn.run("/usr/bin/pgrep", ["-u", user, "-f", marker]) else { return [] }
        return found.out.split(separator: "\n").compactMap { Int32($0) }
    }

    /// Waits up to `timeout` seconds until at least `count` such processes run; true when they do.
    public static func waitUntilRunning(_ marker: String, user: String, count: Int = 1, timeout: Double = 10) -> Bool {
        waitUntil(timeout) { pids(marker, user: user).count >= count }
    }

    /// Waits up to `timeout` seconds until no such process is left; true when none is.
    public static func waitUntilGone(_ marker: String, user: String, timeout: Double = 3) -> Bool {
        waitUntil(timeout) { pids(marker, user: user).isEmpty }
    }

    /// Kills what is left (a test's cleanup, also after a failure).
    public static func kill(_ marker: String, user: String) {
        _ = try? Spawn.run("/usr/bin/pkill", ["-KILL", "-u", user, "-f", marker])
    }

    private static func waitUntil(_ timeout: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if condition() { return true }
            if Date() >= deadline { return false }
            usleep(50_000)
        }
    }
}
