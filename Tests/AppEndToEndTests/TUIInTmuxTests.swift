import Foundation
import Testing
import TestSupport

/// The real `essh` binary, full screen in tmux, against the real test sshd.
@Suite("essh TUI in tmux", .serialized)
struct TUIInTmuxTests {
    @Test func connectRunSeeOutputEndAndQuit() throws {
        let servers = try TestServers.require()
        let essh = try EsshInTmux(servers: [.box()])
        defer { essh.stop() }
        let tmux = essh.tmux
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
        let time = try tmux.waitForLine(containing: "Time of connection:")
        #expect(time.range(of: #"Time of connection: \d+ seconds?"#, options: .regularExpression) != nil, "\(time)")
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
        try essh.quit()
        #expect(try tmux.display("#{alternate_on}") == "0", "the terminal is restored")
        let list = try essh.run(["servers", "list"])
        #expect(list.out.contains("linux"))
    }

    /// The same key already trusted under another name is named in the question, as OpenSSH's "This host key is
    /// known by the following other names/addresses".
    @Test func theHostKeyQuestionNamesTheSameKeysOtherNames() throws {
        let servers = try TestServers.require()
        let essh = try EsshInTmux(servers: [.init("alias", host: "localhost")], width: 120, height: 40)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "alias")
        try tmux.press("Enter")
        try tmux.waitFor(text: "This key is already known as [127.0.0.1]:\(servers.port), [127.0.0.2]:\(servers.port)")
        try tmux.press("Escape")
        try tmux.waitFor(text: "Could not connect")
        try tmux.press("Enter")
        try essh.quit()
    }

    @Test func unknownHostKeyIsAskedWithItsFingerprintAndRefusalSaysWhy() throws {
        let servers = try TestServers.require()
        let essh = try EsshInTmux(servers: [.box()], knownHosts: .empty)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "box")
        try tmux.press("Enter")
        try tmux.waitFor(text: servers.ed25519Fingerprint)
        try tmux.press("Escape")
        try tmux.waitFor(text: "Could not connect")
        try tmux.press("Enter", "Enter")
        try tmux.waitFor(text: servers.ed25519Fingerprint)
        // As OpenSSH, Enter alone (or a letter) does not trust a new key: the answer is typed.
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type yes, once or no")
        try tmux.type("a")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type yes, once or no")
        #expect(((try? String(contentsOfFile: essh.knownHosts, encoding: .utf8)) ?? "").isEmpty, "nothing trusted yet")
        try tmux.press("BSpace")
        try tmux.type("yes")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        let saved = (try? String(contentsOfFile: essh.knownHosts, encoding: .utf8)) ?? ""
        #expect(!saved.isEmpty, "yes saved the key")
        try tmux.press("C-d")
        try tmux.waitFor(text: "Time of connection:")
        try essh.quit()
    }
}
