import Foundation
import Testing
import TestSupport

/// The team's pinned host keys against the real test sshd: a member with an empty known_hosts connects to a pinned
/// server without a question and writes nothing; a pin of another key makes eSSH refuse the server's, naming the
/// pin's fingerprint and who pinned it.
@Suite(.serialized) struct TeamPinTests {
    typealias Home = TeamFixture.Home

    private func fingerprint(_ publicKey: String) throws -> String {
        let r = try Binary.run("/usr/bin/ssh-keygen", ["-l", "-E", "sha256", "-f", publicKey])
        return r.out.split(separator: " ").dropFirst().first.map(String.init) ?? ""
    }

    @Test func aPinnedKeyIsTrustedWithoutAQuestionAndAnotherRefused() throws {
        let s = try TestServers.require()
        let team = try TeamFixture.makeTeam()
        let editor = try Home(team, team.editor), member = try Home(team, team.member)
        defer { editor.cleanup(); member.cleanup() }
        try editor.join(team)
        var r = try editor.essh(["servers", "add", "box", "--host", "127.0.0.1", "--port", String(s.port),
                                 "--user", s.user, "--tag", "pinned", "--team"])
        #expect(r.status == 0, "\(r.err)")
        #expect(try editor.sync().status == 0)
        let hostKey = s.hostKeys + "/ssh_host_ed25519_key.pub"
        r = try editor.team(["pin", "box", "--file", hostKey])
        let pinned = try fingerprint(hostKey)
        #expect(r.status == 0 && r.out.contains("Pinned ssh-ed25519 \(pinned) for box"), "\(r.out)\(r.err)")

        try member.join(team)
        let knownHosts = member.dir.file("known_hosts")
        try Data().write(to: URL(fileURLWithPath: knownHosts))
        let exec = ["exec", "--known-hosts", knownHosts, "--host-key-policy", "strict", "-i", s.key("id_ed25519"),
                    "box", "--", "echo", "pinned ok"]
        r = try member.essh(exec)
        #expect(r.status == 0 && r.out == "pinned ok\n", "\(r.status) \(r.out)\(r.err)")
        #expect(!r.err.lowercased().contains("unknown") && !r.err.contains("?"), "\(r.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: knownHosts)).isEmpty, "nothing written to known_hosts")
        // A fleet run (the member's own key for the shared server: a personal field) trusts the pin as well.
        r = try member.essh(["servers", "edit", "box", "--key", s.key("id_ed25519")])
        #expect(r.status == 0, "a member sets a personal field: \(r.err)")
        let fleet = ["exec", "--tag", "pinned", "--known-hosts", knownHosts, "--json", "echo fleet ok"]
        r = try member.essh(fleet)
        #expect(r.status == 0 && r.out.contains("fleet ok"), "\(r.status) \(r.out)\(r.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: knownHosts)).isEmpty)
        // On a terminal too: no trust-on-first-use question (the run would hang on one and time out).
        let tty = try PseudoTerminal.run(Binary.essh, exec, environment: member.environment, answers: [], timeout: 30)
        #expect(tty.status == 0 && tty.transcript.contains("pinned ok"), "\(tty.transcript)")
        #expect(!tty.transcript.contains("yes/no") && !tty.transcript.contains("(y"), "\(tty.transcript)")

        // Another key pinned: the member's connection is refused, naming the pin and who set it.
        let other = editor.dir.file("other.pub")
        try Data(s.otherHostKeyLine.utf8).write(to: URL(fileURLWithPath: other))
        let otherPrint = try fingerprint(other)
        r = try editor.team(["unpin", "box"])
        #expect(r.status == 0 && r.out.contains("Removed 1 pin"), "\(r.out)\(r.err)")
        r = try editor.team(["pin", "box", "--file", other])
        #expect(r.status == 0, "\(r.err)")
        #expect(try member.sync().status == 0)
        r = try member.essh(exec)
        #expect(r.status == 255, "\(r.status) \(r.out)")
        #expect(r.err.contains(otherPrint) && r.err.contains(team.editor), "\(r.err)")
        #expect(!r.out.contains("pinned ok"))
        r = try member.essh(fleet)
        #expect(r.status != 0 && !r.out.contains("fleet ok") && (r.out + r.err).contains(otherPrint),
                "\(r.status) \(r.out)\(r.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: knownHosts)).isEmpty)
        // A known_hosts entry for the real key does not beat the team's pin.
        let line = "[127.0.0.1]:\(s.port) " + (try String(contentsOfFile: hostKey, encoding: .utf8))
        try Data(line.utf8).write(to: URL(fileURLWithPath: knownHosts))
        r = try member.essh(exec)
        #expect(r.status == 255 && r.err.contains(otherPrint), "\(r.status) \(r.err)")
    }

    /// `essh team pin NAME` without --file pins what the editor's own known_hosts holds for the server (after a first
    /// connection accepted its key); with nothing there it says how to get it.
    @Test func pinTakesTheEditorsKnownHostsKey() throws {
        let s = try TestServers.require()
        let team = try TeamFixture.makeTeam()
        let editor = try Home(team, team.editor), member = try Home(team, team.member)
        defer { editor.cleanup(); member.cleanup() }
        try editor.join(team)
        var r = try editor.essh(["servers", "add", "box", "--host", "127.0.0.1", "--port", String(s.port),
                                 "--user", s.user, "--key", s.key("id_ed25519"), "--team"])
        #expect(r.status == 0, "\(r.err)")
        #expect(try editor.sync().status == 0)
        r = try editor.team(["pin", "box"])
        #expect(r.status == 2 && r.err.contains("connect once"), "\(r.status) \(r.err)")
        // The first connection accepts the key into ~/.ssh/known_hosts of the editor's HOME.
        r = try editor.essh(["exec", "--host-key-policy", "accept-new", "box", "--", "true"])
        #expect(r.status == 0, "\(r.err)")
        r = try editor.team(["pin", "box", "--json"])
        #expect(r.status == 0, "\(r.out)\(r.err)")
        let snapshot = try editor.snapshot()
        #expect(snapshot.contains("\"pinnedBy\":\"\(team.editor)\""), "\(snapshot.suffix(600))")

        try member.join(team)
        let knownHosts = member.dir.file("known_hosts")
        try Data().write(to: URL(fileURLWithPath: knownHosts))
        r = try member.essh(["exec", "--known-hosts", knownHosts, "--host-key-policy", "strict", "-i",
                             s.key("id_ed25519"), "box", "--", "echo", "ok"])
        #expect(r.status == 0 && r.out == "ok\n", "\(r.status) \(r.out)\(r.err)")
    }
}
