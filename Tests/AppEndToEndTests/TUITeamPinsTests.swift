import Foundation
import Inventory
import Testing
import TestSupport

/// The team's pinned host keys in the real interface (issue 18), against the harness's sshd with an empty
/// known_hosts: a member's first connection to a pinned server asks no host-key question, and after the team pins
/// another key the connection is refused, naming the pin and who set it.
@Suite("essh TUI: team-pinned host keys")
struct TUITeamPinsTests {
    /// The harness's public host key of `file` as (type, base64).
    static func hostKey(_ harness: TestServers, _ file: String) throws -> (type: String, key: String) {
        let line = try String(contentsOfFile: harness.hostKeys + "/" + file, encoding: .utf8)
        let parts = line.split(separator: " ")
        guard parts.count >= 2 else { throw TmuxSession.Failure(description: "unreadable host key \(file)") }
        return (String(parts[0]), String(parts[1]))
    }

    @Test func aPinnedKeyIsTrustedWithoutAQuestionAndAnotherIsRefusedNamingThePin() throws {
        let harness = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let real = try Self.hostKey(harness, "ssh_host_ed25519_key.pub")
        let other = try Self.hostKey(harness, "other_ed25519_key.pub")
        let uid = UUID().uuidString.lowercased()
        do {
            // A member's cache after a pull: the shared server and the team's pin of its real key. The team
            // database itself is away (port 1): everything here works from the cache.
            let inventory = try Inventory(path: dir.file("essh.db"))
            try inventory.saveTeamLink(TeamLink(url: "postgres://mem@127.0.0.1:1/team", member: "mem", role: .member))
            let server = SharedServer(uid: uid, name: "pinned-box", host: harness.host, port: harness.port,
                                      user: harness.user, jump: "", tags: [], os: "linux", revision: 2)
            let pin = TeamPin(host: harness.host, port: harness.port, keyType: real.type, key: real.key,
                              fingerprint: harness.ed25519Fingerprint, pinnedBy: "ed_role",
                              pinnedAt: Date(timeIntervalSince1970: 1_795_000_000), revision: 3)
            _ = try inventory.applyTeamChanges(TeamChanges(servers: [server], pins: [pin], revision: 3))
            // Personal fields stay the member's to set: the key that logs in.
            try inventory.updateServer(named: "pinned-box",
                                       ServerChanges(auth: .key, keyPath: harness.key("id_ed25519")))
        }
        do {
            let essh = try EsshInTmux(knownHosts: .empty, in: dir)
            defer { essh.stop() }
            try essh.tmux.waitFor(text: "pinned-box")
            try essh.tmux.press("Enter")
            // No host-key question stands between Enter and the session (known_hosts is empty).
            let screen = try essh.tmux.waitFor(text: "Type a command", timeout: 15)
            #expect(!screen.joined(separator: "\n").contains("authenticity"), "\(screen)")
            try essh.endSession()
            try essh.quit()
        }
        let knownHosts = (try? String(contentsOfFile: dir.file("known_hosts"), encoding: .utf8)) ?? ""
        #expect(!knownHosts.contains(real.key), "a pinned key is not written to known_hosts")
        do {
            // The team pins another key for that host (the old pin removed): the real key is refused.
            let inventory = try Inventory(path: dir.file("essh.db"))
            let removed = TeamPin(host: harness.host, port: harness.port, keyType: real.type, key: real.key,
                                  fingerprint: harness.ed25519Fingerprint, pinnedBy: "ed_role", revision: 4,
                                  deleted: true)
            let pin = TeamPin(host: harness.host, port: harness.port, keyType: other.type, key: other.key,
                              fingerprint: "SHA256:other-key-pinned-by-ed", pinnedBy: "ed_role",
                              pinnedAt: Date(timeIntervalSince1970: 1_795_000_000), revision: 5)
            _ = try inventory.applyTeamChanges(TeamChanges(pins: [removed, pin], revision: 5))
        }
        let essh = try EsshInTmux(knownHosts: .empty, in: dir)
        defer { essh.stop() }
        try essh.tmux.waitFor(text: "pinned-box")
        try essh.tmux.press("Enter")
        let refused = try essh.tmux.waitFor(text: "pinned by ed_role", timeout: 15).joined(separator: "\n")
        #expect(refused.contains("SHA256:other-key-pinned-by-ed"), "\(refused)")
    }
}
