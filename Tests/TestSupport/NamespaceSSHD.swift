import Foundation
import LocalProcess

/// One more OpenSSH server inside a namespace of the jump topology, for a single test that needs a bastion of its
/// own: its own log (to count its logins), config lines of the test's, or to be killed mid-session. It uses the host
/// keys of `server` (so it is that machine on another port), the harness's test user and authorized_keys, runs in
/// the foreground as our child (`ip netns exec NS sshd -D -e`) and is stopped by `stop()`. Needs root.
public final class NamespaceSSHD: Sendable {
    public let host: String
    public let port: Int
    /// sshd's own log (its stderr, LogLevel VERBOSE).
    public let logPath: String
    private let pid: pid_t
    private let dir: TempDir

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts sshd in `server`'s namespace with the harness's settings and `extra` config lines, at a port free
    /// there, and waits until it listens.
    public init(_ server: TestServers.NamespaceServer, servers: TestServers, extra: [String] = []) throws {
        let dir = try TempDir()
        chmod(dir.path, 0o755)
        logPath = dir.file("sshd.log")
        var lastWhy = ""
        for attempt in 0..<20 {
            let port = 20000 + Int.random(in: 0..<20000) + attempt
            var lines = [
                "Port \(port)", "ListenAddress 0.0.0.0", "PidFile none",
                "AuthorizedKeysFile \"\(servers.authorizedKeys)\"", "StrictModes yes", "LogLevel VERBOSE",
                "UsePAM no", "PasswordAuthentication yes", "PubkeyAuthentication yes",
                "KbdInteractiveAuthentication no", "PrintMotd no", "PrintLastLog no", "AllowUsers \(servers.user)",
                "MaxAuthTries 20", "MaxStartups 400:30:800", "MaxSessions 64",
            ]
            lines += ["ed25519", "ecdsa"].map { "HostKey \"\(server.hostKeys)/ssh_host_\($0)_key\"" }
            lines += extra
            let config = dir.file("sshd_config")
            try (lines.joined(separator: "\n") + "\n").write(toFile: config, atomically: true, encoding: .utf8)
            let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0o644)
            guard log >= 0 else { throw Failure(description: "cannot create \(logPath)") }
            let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
            let pid: pid_t
            do {
                // -E, not -e: with -e only the listener's own lines reach stderr (each login's processes log
                // elsewhere), so the log held one `Accepted` line however many logins there were.
                pid = try ChildProcess.spawn("/usr/sbin/ip", ["netns", "exec", server.netns, "/usr/sbin/sshd", "-D",
                                                              "-E", logPath, "-f", config],
                                             stdin: devNull, stdout: log, stderr: log, closeOtherDescriptors: true,
                                             newSession: true)
            } catch {
                close(log)
                close(devNull)
                dir.cleanup()
                throw Failure(description: "could not start sshd: \(error.reason)")
            }
            close(log)
            close(devNull)
            for _ in 0..<200 {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { break }
                if (try? String(contentsOfFile: logPath, encoding: .utf8))?.contains("Server listening on") == true {
                    self.host = server.host
                    self.port = port
                    self.pid = pid
                    self.dir = dir
                    return
                }
                usleep(20_000)
            }
            lastWhy = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid, timeout: 2)
        }
        dir.cleanup()
        throw Failure(description: "sshd did not start in \(server.netns): \(lastWhy)")
    }

    /// Stops sshd and every session it started, then removes its folder.
    public func stop() {
        killAll(SIGTERM)
        if ChildProcess.wait(pid, timeout: 5) == nil { kill(pid, SIGKILL) }
        dir.cleanup()
    }

    /// Kills sshd and every process it started (each login's monitor included) with `signal`: SIGKILL plays a
    /// bastion that dies mid-session (its kernel closes the connections), SIGSTOP one that stops answering.
    public func killAll(_ signal: Int32 = SIGKILL) {
        send(signal, to: frozen(including: [pid]))
    }

    /// Kills only the processes serving logins (sshd keeps listening): every session drops, and a client that
    /// reconnects gets in again.
    public func killSessions(_ signal: Int32 = SIGKILL) {
        send(signal, to: frozen(including: []))
    }

    private func send(_ signal: Int32, to processes: [pid_t]) {
        for p in processes { kill(p, signal) }
        // Stopped, a process keeps any other signal pending until it goes on.
        if signal != SIGKILL && signal != SIGSTOP { for p in processes { kill(p, SIGCONT) } }
    }

    /// sshd's processes (`roots` and every descendant), each stopped first: a login's monitor forks the
    /// post-authentication child right after the login, and a child forked between a look at /proc and its parent's
    /// death would live on as an orphan still serving the session. Stopped processes fork no more; the look is
    /// repeated until it finds nothing new.
    private func frozen(including roots: [pid_t]) -> [pid_t] {
        var seen: Set<pid_t> = []
        var quiet = 0
        for p in roots { kill(p, SIGSTOP) }
        seen.formUnion(roots)
        while quiet < 2 {
            let fresh = Set(descendants()).subtracting(seen)
            for p in fresh { kill(p, SIGSTOP) }
            seen.formUnion(fresh)
            quiet = fresh.isEmpty ? quiet + 1 : 0
            usleep(20_000)
        }
        return Array(seen)
    }

    /// The processes below sshd (its per-login monitors call setsid, so a process group does not reach them).
    private func descendants() -> [pid_t] {
        var parents: [pid_t: [pid_t]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let p = pid_t(name),
                  let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[parent, default: []].append(p) }
        }
        var result: [pid_t] = []
        var queue = [pid]
        while let next = queue.popLast() {
            let children = parents[next] ?? []
            result += children
            queue += children
        }
        return result
    }

    /// sshd's log so far.
    public var log: String {
        (try? Data(contentsOf: URL(fileURLWithPath: logPath))).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The number of logins sshd accepted so far (its `Accepted publickey for …` / `Accepted password for …`
    /// lines; LogLevel VERBOSE's `Accepted key … found at …` lines are a key's check, not a login).
    public var acceptedLogins: Int {
        // sshd ends its log lines with \r\n, one Character in Swift: split on any line end.
        log.split(whereSeparator: \.isNewline).filter { $0.contains("Accepted ") && $0.contains(" for ") }.count
    }
}
