import Foundation
import Inventory
import Team
import Testing
import TestSupport

/// The real `essh` interface of a member linked to a team on a real PostgreSQL (issue 18): the shared server has
/// its marker beside the personal one, the team line says the cache synced, and a server another member adds
/// appears on screen without a key being pressed.
@Suite("essh TUI: a team's shared servers")
struct TUITeamTests {
    @Test func aSharedServerHasItsMarkerAndAnotherMembersAdditionAppearsWithoutAKeypress() throws {
        let cluster = try PostgresCluster.start()
        defer { cluster.remove() }
        let made = try PostgresTeam.make(on: cluster, prefix: "e")
        let database = made.database, editor = made.editor, member = made.member
        let team = try TeamDatabase.open(url: made.url(editor),
                                         password: Array(made.passwords[editor, default: ""].utf8))
        func create(_ name: String, id: Int64) -> TeamEdit {
            let server = SharedServer(uid: UUID().uuidString.lowercased(), name: name, host: "10.2.0.\(id)", port: 22,
                                      user: "admin", jump: "", tags: ["team"], os: "linux")
            return TeamEdit(id: id, uid: server.uid, kind: .create, baseRevision: 0, base: [:], mine: server.values)
        }
        _ = try team.push([create("alpha-shared", id: 1)])

        // The member's inventory: a personal server, and the link (as `essh team join` leaves it).
        let dir = try TempDir()
        defer { dir.cleanup() }
        do {
            let inventory = try Inventory(path: dir.file("essh.db"))
            try inventory.addServer(ServerDraft(name: "mine-personal", host: "10.3.0.1"))
            try inventory.saveTeamLink(TeamLink(url: cluster.url(user: member, database: database), member: member,
                                                role: .member))
        }
        // The member's password comes from ~/.pgpass (here PGPASSFILE): libpq's own source, no question.
        let essh = try EsshInTmux(knownHosts: .empty, environment: ["PGPASSFILE": cluster.passFile], in: dir,
                                  width: 100, height: 30)
        defer { essh.stop() }
        let tmux = essh.tmux
        var screen = try tmux.waitFor(text: "alpha-shared", timeout: 10)
        screen = try tmux.waitFor(text: "team: synced just now", timeout: 10)
        let alpha = screen.first { $0.contains("alpha-shared") } ?? ""
        let mine = screen.first { $0.contains("mine-personal") } ?? ""
        #expect(alpha.contains("⇄") || alpha.contains(" T alpha-shared"), "\(alpha)")
        #expect(!mine.contains("⇄") && !mine.contains(" T mine-personal"), "\(mine)")

        // Another member adds a server: it appears without a keypress (LISTEN/NOTIFY, then the list reloads).
        _ = try team.push([create("beta-added", id: 2)])
        screen = try tmux.waitFor(text: "beta-added", timeout: 5)
        let beta = screen.first { $0.contains("beta-added") } ?? ""
        #expect(beta.contains("⇄") || beta.contains(" T beta-added"), "\(beta)")
        #expect(screen.joined(separator: "\n").contains("eSSH — Servers (3/3)"), "\(screen.joined(separator: "\n"))")
        try essh.quit()
    }
}
