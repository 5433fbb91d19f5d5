import Foundation

/// What the kernel says a process has used, for tests that a program sleeps when idle.
public enum ProcessStats {
    /// User plus system CPU time of `pid`, in clock ticks (`/proc/PID/stat` fields 14 and 15).
    public static func cpuTicks(_ pid: pid_t) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// Voluntary plus involuntary context switches of every thread of `pid`.
    public static func contextSwitches(_ pid: pid_t) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        var total = 0
        for task in tasks {
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            for line in status.split(separator: "\n") where line.contains("ctxt_switches") {
                total += Int(line.split(separator: "\t").last.map(String.init) ?? "") ?? 0
            }
        }
        return total
    }
}

extension TmuxSession {
    /// The process named `name` that the pane's shell started (the program under test, not a grandchild).
    public func paneChild(named name: String) throws -> pid_t {
        let shell = try display("#{pane_pid}")
        let found = try Spawn.run("/usr/bin/pgrep", ["-P", shell, "-x", name])
        guard let pid = pid_t(found.out.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "No \(name) process under the pane's shell \(shell).")
        }
        return pid
    }
}
