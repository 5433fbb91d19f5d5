import Foundation
import Testing
import TestSupport

/// The real `essh` binary, full screen in tmux, against the real test sshd.
@Suite("essh TUI in tmux", .serialized)
struct TUIInTmuxTests {
    @Test func connectRunSeeOutputEndAndQuit() throws {
        let servers = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let db = dir.file("essh.db")
        let env = ["ESSH_DB": db]
        let add = try Binary.runEssh(["servers", "add", "box", "--host", servers.host, "--port", "\(servers.port)",
                                      "--user", servers.user, "--key", servers.key("id_ed25519")],
                                     environment: env)
        #expect(add.status == 0, "\(add.err)")

        let command = "cd \(dir.path) && ESSH_DB=\(db) ESSH_KNOWN_HOSTS=\(servers.knownHosts) LANG=C.UTF-8 "
            + "TERM=xterm-256color \(Binary.essh); echo ESSH-EXITED-$?; sleep 30"
        let tmux = try TmuxSession(command: command, width: 100, height: 30)
        defer { tmux.kill() }
        try tmux.waitFor("box with its latency") { $0.contains { $0.contains("box") && $0.contains(" ms") } }
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.type("echo héllo")
        try tmux.press("Enter")
        try tmux.waitFor(text: "[exit 0")
        let session = try tmux.screen()
        #expect(session.contains { $0 == "héllo" || $0.hasPrefix("héllo ") })
        #expect(session[0].contains("\(servers.user)@127.0.0.1:\(servers.port)"))
        #expect(session[0].contains("linux"))
        // F2: the interfaces as a parsed table; F5: the raw output.
        try tmux.press("F2")
        let table = try tmux.waitFor(text: "DEVICE")
        #expect(table.contains { $0.hasPrefix("lo ") && $0.contains("127.0.0.1") })
        try tmux.press("F5")
        try tmux.waitFor(text: "raw (F5 table)")
        try tmux.press("F10")
        let summary = try tmux.waitFor(text: "Time of connection:")
        let pattern = #"Time of connection: \d+ seconds?"#
        #expect(summary.contains { $0.range(of: pattern, options: .regularExpression) != nil })
        try tmux.press("Enter")
        try tmux.waitFor(text: "just now")
        // The detected OS was saved, and the command went into the server's history (Up recalls it).
        try tmux.waitFor(text: "linux")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.press("Up")
        try tmux.waitFor(text: "> echo héllo")
        try tmux.press("C-u", "F10")
        try tmux.waitFor(text: "Time of connection:")
        try tmux.press("q")
        try tmux.waitFor(text: "ESSH-EXITED-0")
        #expect(try tmux.display("#{alternate_on}") == "0", "the terminal is restored")
        let list = try Binary.runEssh(["servers", "list"], environment: env)
        #expect(list.out.contains("linux"))
    }

    @Test func unknownHostKeyIsAskedWithItsFingerprintAndRefusalSaysWhy() throws {
        let servers = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let db = dir.file("essh.db")
        _ = try Binary.runEssh(["servers", "add", "box", "--host", servers.host, "--port", "\(servers.port)",
                                "--user", servers.user, "--key", servers.key("id_ed25519")],
                               environment: ["ESSH_DB": db])
        let knownHosts = dir.file("known_hosts")
        let command = "ESSH_DB=\(db) ESSH_KNOWN_HOSTS=\(knownHosts) LANG=C.UTF-8 TERM=xterm-256color "
            + "\(Binary.essh); echo ESSH-EXITED-$?; sleep 30"
        let tmux = try TmuxSession(command: command, width: 100, height: 30)
        defer { tmux.kill() }
        try tmux.waitFor(text: "box")
        try tmux.press("Enter")
        try tmux.waitFor(text: servers.ed25519Fingerprint)
        try tmux.press("Escape")
        try tmux.waitFor(text: "Could not connect")
        try tmux.press("Enter", "Enter")
        try tmux.waitFor(text: servers.ed25519Fingerprint)
        try tmux.press("a")
        try tmux.waitFor(text: "Type a command")
        let saved = (try? String(contentsOfFile: knownHosts, encoding: .utf8)) ?? ""
        #expect(!saved.isEmpty, "Accept and save wrote the key")
        try tmux.press("C-d")
        try tmux.waitFor(text: "Time of connection:")
        try tmux.press("q")
        try tmux.waitFor(text: "ESSH-EXITED-0")
    }
}
