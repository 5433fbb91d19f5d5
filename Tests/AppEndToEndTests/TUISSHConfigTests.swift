import Foundation
import Testing
import TestSupport

/// The real `essh` TUI with a HOME whose ~/.ssh/config names the test sshd: the first start offers to import it,
/// and quick connect reaches its hosts by name.
@Suite("essh TUI: ~/.ssh/config")
struct TUISSHConfigTests {
    /// A folder (essh's HOME) whose ~/.ssh/config names the test sshd as `lab1`, the topology's t1 through its
    /// bastion b1 as `behind` (b1 is `lab-b1`), and `piped`, behind a ProxyCommand eSSH does not run; its
    /// known_hosts holds the keys of all of them.
    private func home(_ s: TestServers) throws -> TempDir {
        let dir = try TempDir()
        try FileManager.default.createDirectory(atPath: dir.file(".ssh"), withIntermediateDirectories: true)
        try """
            Host lab1
                HostName 127.0.0.1
                Port \(s.port)
                User \(s.user)
                IdentityFile \(s.key("id_ed25519"))
            Host behind
                HostName \(s.jump.t1.host)
                Port \(s.jump.t1.port)
                User \(s.user)
                IdentityFile \(s.key("id_ed25519"))
                ProxyJump lab-b1
            Host lab-b1
                HostName \(s.jump.b1.host)
                User \(s.user)
                IdentityFile \(s.key("id_ed25519"))
            Host piped
                HostName 127.0.0.1
                Port \(s.port)
                ProxyCommand nc %h %p
            """.write(toFile: dir.file(".ssh/config"), atomically: true, encoding: .utf8)
        let known = try String(contentsOfFile: s.knownHosts, encoding: .utf8) + "\n"
            + String(contentsOfFile: s.jump.knownHosts, encoding: .utf8)
        try known.write(toFile: dir.file("known_hosts"), atomically: true, encoding: .utf8)
        return dir
    }

    @Test func theFirstStartOffersTheImportAndOneKeyDoesIt() throws {
        let s = try TestServers.require()
        let dir = try home(s)
        defer { dir.cleanup() }
        let essh = try EsshInTmux(knownHosts: .empty, homeInFolder: true, in: dir)
        defer { essh.stop() }
        let tmux = essh.tmux
        let offer = try tmux.waitFor(text: "Import ~/.ssh/config?")
        // The offer names what the import saves: the host behind a jump host too, with its chain.
        #expect(offer.contains { $0.contains("Your ~/.ssh/config names 4 hosts:") }, "\(offer)")
        try tmux.press("i")
        let list = try tmux.waitFor(text: "Imported ~/.ssh/config: 4 added, 0 updated, 0 unchanged, 0 skipped")
        #expect(list.contains { $0.contains("lab1") && $0.contains("\(s.user)@127.0.0.1:\(s.port)") }, "\(list)")
        #expect(list.contains { $0.contains("behind") }, "\(list)")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
    }

    @Test func declinedTheOfferIsNotMadeAgainAndQuickConnectReachesHostsByName() throws {
        let s = try TestServers.require()
        let dir = try home(s)
        defer { dir.cleanup() }
        do {
            let essh = try EsshInTmux(knownHosts: .empty, homeInFolder: true, in: dir)
            defer { essh.stop() }
            try essh.tmux.waitFor(text: "Import ~/.ssh/config?")
            try essh.tmux.press("n")
            try essh.tmux.waitFor(text: "No servers yet")
            try essh.quit()
        }
        // The same folder: its known_hosts (the test servers' keys) is there from the first start.
        let essh = try EsshInTmux(knownHosts: .empty, homeInFolder: true, in: dir)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "No servers yet")
        // The offer would come within a moment of the list: give it time, then look.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(!(try tmux.screen()).contains { $0.contains("Import ~/.ssh/config?") }, "declined is remembered")
        // Quick connect: a ProxyCommand eSSH does not run is refused with its sentence, a Host connects, and one
        // behind a jump host connects through it.
        try tmux.press("n")
        try tmux.waitFor(text: "Quick connect")
        try tmux.type("piped")
        try tmux.press("Enter")
        let refused = try tmux.waitFor(text: "Could not connect").joined(separator: " ")
        #expect(refused.contains("piped") && refused.contains("ProxyCommand"), "\(refused)")
        try tmux.press("Enter")
        try tmux.press("n")
        try tmux.waitFor(text: "Quick connect")
        try tmux.type("behind")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.type("echo AT-$(echo $SSH_CONNECTION | cut -d' ' -f3)")
        try tmux.press("Enter")
        try tmux.waitFor(text: "AT-\(s.jump.t1.host)")
        try tmux.press("F10")
        try tmux.waitFor(text: "Time of connection:")
        try tmux.press("Enter")
        try tmux.press("n")
        try tmux.waitFor(text: "Quick connect")
        try tmux.type("lab1")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Connected to \(s.user)@127.0.0.1:\(s.port)")
    }
}
