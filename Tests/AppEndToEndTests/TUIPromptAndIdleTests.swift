import Foundation
import Testing
import TestSupport

/// The real `essh` TUI: a password asked in a masked field, the idle loop, and no terminal at all.
@Suite("essh TUI: passwords, idle, no terminal")
struct TUIPromptAndIdleTests {
    private static func start(_ dir: TempDir, servers: TestServers, auth: [String], port: Int? = nil) throws
        -> TmuxSession
    {
        let db = dir.file("essh.db")
        let add = try Binary.runEssh(["servers", "add", "box", "--host", servers.host,
                                      "--port", "\(port ?? servers.port)",
                                      "--user", servers.user] + auth, environment: ["ESSH_DB": db])
        #expect(add.status == 0, "\(add.err)")
        let command = "ESSH_DB=\(db) ESSH_KNOWN_HOSTS=\(servers.knownHosts) XDG_STATE_HOME=\(dir.path)/state "
            + "LANG=C.UTF-8 TERM=xterm-256color \(Binary.essh); echo ESSH-EXITED-$?; sleep 30"
        return try TmuxSession(command: command, width: 100, height: 30)
    }

    @Test func aPasswordIsTypedIntoAMaskedFieldAndLogsIn() throws {
        let servers = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let tmux = try Self.start(dir, servers: servers, auth: ["--auth", "password"])
        defer { tmux.kill() }
        try tmux.waitFor(text: "box")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Password for \(servers.user)@")
        try tmux.type(servers.password)
        let typed = try tmux.waitFor(text: String(repeating: "*", count: servers.password.count))
        #expect(!typed.contains { $0.contains(servers.password) }, "the password is never shown")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.type("whoami")
        try tmux.press("Enter")
        try tmux.waitFor(text: "[exit 0")
        #expect(try tmux.screen().contains(servers.user))
        try tmux.press("F10")
        try tmux.waitFor(text: "Time of connection:")
        try tmux.press("q")
        try tmux.waitFor(text: "ESSH-EXITED-0")
    }

    @Test func keyboardInteractivePromptsAreAnsweredInTheDialog() throws {
        let servers = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let tmux = try Self.start(dir, servers: servers, auth: ["--auth", "password"], port: servers.kbdPort)
        defer { tmux.kill() }
        try tmux.waitFor(text: "box")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Enter: send")
        try tmux.type(servers.password)
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.press("C-d")
        try tmux.waitFor(text: "Time of connection:")
        try tmux.press("q")
        try tmux.waitFor(text: "ESSH-EXITED-0")
    }

    @Test func aRefusedKeyFallsBackToAPasswordAndGivingUpSaysWhy() throws {
        let servers = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let tmux = try Self.start(dir, servers: servers, auth: ["--key", servers.key("id_unauthorized")])
        defer { tmux.kill() }
        try tmux.waitFor(text: "box")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Password for")
        try tmux.press("Escape")
        let failed = try tmux.waitFor(text: "Could not connect")
        // The dialog gives SSH's reason (the server's allowed methods and what was tried), not a generic failure.
        let screen = failed.joined(separator: "\n")
        #expect(screen.contains("Permission denied"), "the reason is shown: \(screen)")
        try tmux.press("Enter")
        try tmux.waitFor(text: "eSSH — Servers")
        try tmux.press("q")
        try tmux.waitFor(text: "ESSH-EXITED-0")
        // The detail goes to the log file, in a private directory, never to the screen.
        let logDir = dir.path + "/state/essh"
        let mode = try FileManager.default.attributesOfItem(atPath: logDir)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let log = try String(contentsOfFile: logDir + "/essh.log", encoding: .utf8)
        #expect(log.contains("connect \(servers.user)@\(servers.host):\(servers.port) failed"))
    }

    @Test func theIdleServersScreenSleepsInsteadOfSpinning() throws {
        let servers = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let tmux = try Self.start(dir, servers: servers, auth: ["--key", servers.key("id_ed25519")])
        defer { tmux.kill() }
        try tmux.waitFor(text: "Checked 1 server")
        let shell = try tmux.display("#{pane_pid}")
        let found = try Spawn.run("/usr/bin/pgrep", ["-P", shell, "-x", "essh"])
        let pid = try #require(pid_t(found.out.trimmingCharacters(in: .whitespacesAndNewlines)))
        usleep(300_000)
        let before = try cpuTicks(pid)
        usleep(2_000_000)
        let used = try cpuTicks(pid) - before
        // A busy loop would burn about 200 ticks in 2 s.
        #expect(used < 10, "the idle TUI used \(used) CPU ticks in 2 s")
        try tmux.press("q")
        try tmux.waitFor(text: "ESSH-EXITED-0")
    }

    @Test func withoutATerminalItSaysSoAndCreatesNothing() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let db = dir.file("never.db")
        let result = try Binary.runEssh([], environment: ["ESSH_DB": db])
        #expect(result.status == 1)
        #expect(result.err.contains("needs a terminal"))
        #expect(!FileManager.default.fileExists(atPath: db))
    }

    /// User plus system CPU time of `pid`, in clock ticks (`/proc/PID/stat` fields 14 and 15).
    private func cpuTicks(_ pid: pid_t) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }
}
