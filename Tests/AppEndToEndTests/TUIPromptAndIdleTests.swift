import Foundation
import Testing
import TestSupport

/// The real `essh` TUI: a password asked in a masked field, the idle loop, and no terminal at all.
@Suite("essh TUI: passwords, idle, no terminal")
struct TUIPromptAndIdleTests {
    @Test func aPasswordIsTypedIntoAMaskedFieldAndLogsIn() throws {
        let servers = try TestServers.require()
        let essh = try EsshInTmux(servers: [.box(login: .password)])
        defer { essh.stop() }
        let tmux = essh.tmux
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
        try essh.endSession()
        try essh.quit()
    }

    @Test func keyboardInteractivePromptsAreAnsweredInTheDialog() throws {
        let servers = try TestServers.require()
        let essh = try EsshInTmux(servers: [.box(login: .password, port: servers.kbdPort)])
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "box")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Enter: send")
        try tmux.type(servers.password)
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.press("C-d")
        try tmux.waitFor(text: "Time of connection:")
        try essh.quit()
    }

    @Test func aRefusedKeyFallsBackToAPasswordAndGivingUpSaysWhy() throws {
        let servers = try TestServers.require()
        let essh = try EsshInTmux(servers: [.box(login: .key("id_unauthorized"))])
        defer { essh.stop() }
        let tmux = essh.tmux
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
        try essh.quit()
        // The detail goes to the log file, in a private directory, never to the screen.
        let logDir = essh.stateHome + "/essh"
        let mode = try FileManager.default.attributesOfItem(atPath: logDir)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        let log = try String(contentsOfFile: logDir + "/essh.log", encoding: .utf8)
        #expect(log.contains("connect \(servers.user)@\(servers.host):\(servers.port) failed"))
    }

    @Test func theIdleServersScreenSleepsInsteadOfSpinning() throws {
        let essh = try EsshInTmux(servers: [.box()])
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "Checked 1 server")
        let pid = try tmux.paneChild(named: "essh")
        usleep(300_000)
        let before = try ProcessStats.cpuTicks(pid)
        usleep(2_000_000)
        let used = try ProcessStats.cpuTicks(pid) - before
        // A busy loop would burn about 200 ticks in 2 s.
        #expect(used < 10, "the idle TUI used \(used) CPU ticks in 2 s")
        try essh.quit()
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
}
