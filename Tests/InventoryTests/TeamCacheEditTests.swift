import Foundation
import Inventory
import TestSupport
import Testing

@Suite struct TeamCacheEditTests {
    private func synced(role: TeamRole) throws -> Inventory {
        let inventory = try TeamFixture.inventory(role: role)
        try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1, revision: 4),
                                                             TeamFixture.shared(2, revision: 5)], revision: 5))
        return inventory
    }

    @Test func aMemberMayNotChangeSharedFieldsAndNothingChanges() throws {
        let inventory = try synced(role: .member)
        let before = try inventory.servers()
        #expect {
            try inventory.updateServer(named: "web1", ServerChanges(host: "10.1.1.1", port: 2222, note: "n"))
        } throws: { error in
            guard let error = error as? InventoryError else { return false }
            return error.kind == .teamReadOnly && error.message.contains("only the team's editors")
                && error.message.contains("host, port") && error.message.contains("note")
        }
        #expect(throws: InventoryError.self) { try inventory.removeServer(named: "web1") }
        #expect(throws: InventoryError.self) { try inventory.removeServers(named: ["web2", "web1"]) }
        #expect(throws: InventoryError.self) {
            try inventory.addServer(ServerDraft(name: "web9", host: "10.0.0.9"), team: true)
        }
        #expect(try inventory.servers() == before)
        #expect(try inventory.teamOutbox().isEmpty)
    }

    @Test func aMemberMayChangePersonalFieldsOfASharedServer() throws {
        let inventory = try synced(role: .member)
        let changed = try inventory.updateServer(named: "web1", ServerChanges(note: "rack 4", credential: .vault))
        #expect(changed.note == "rack 4" && changed.credential == .vault && changed.isShared)
        #expect(try inventory.teamOutbox().isEmpty)
    }

    @Test func anEditorsChangesToOneServerMergeIntoOneEdit() throws {
        let inventory = try synced(role: .editor)
        try inventory.updateServer(named: "web1", ServerChanges(port: 2200))
        try inventory.updateServer(named: "web1", ServerChanges(host: "10.5.5.5", note: "personal only"))
        try inventory.updateServer(named: "web1", ServerChanges(port: 2300))
        var outbox = try inventory.teamOutbox()
        #expect(outbox.count == 1)
        #expect(outbox[0].kind == .update && outbox[0].uid == TeamFixture.uid(1) && outbox[0].baseRevision == 4)
        #expect(outbox[0].base == [.port: "22", .host: "10.0.0.2"])
        #expect(outbox[0].mine == [.port: "2300", .host: "10.5.5.5"])
        #expect(try inventory.server(named: "web1").port == 2300)
        // Back to the base: that field drops out; with none left, the edit goes.
        try inventory.updateServer(named: "web1", ServerChanges(port: 22))
        outbox = try inventory.teamOutbox()
        #expect(outbox.map(\.mine) == [[.host: "10.5.5.5"]])
        try inventory.updateServer(named: "web1", ServerChanges(host: "10.0.0.2"))
        #expect(try inventory.teamOutbox().isEmpty)
    }

    @Test func anEditorsRemovalIsQueuedAndSurvivesAPull() throws {
        let inventory = try synced(role: .editor)
        try inventory.updateServer(named: "web2", ServerChanges(port: 2200))
        try inventory.removeServer(named: "web2")
        let outbox = try inventory.teamOutbox()
        #expect(outbox.count == 1)
        #expect(outbox[0].kind == .delete && outbox[0].uid == TeamFixture.uid(2) && outbox[0].baseRevision == 5)
        #expect(try inventory.findServer(named: "web2") == nil)
        // The team still has it: a pull does not bring it back while the removal waits.
        try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(2, port: 2022, revision: 6)],
                                                   revision: 6))
        #expect(try inventory.findServer(named: "web2") == nil)
    }

    @Test func anEditorAddsASharedServerWithEveryField() throws {
        let inventory = try synced(role: .editor)
        let added = try inventory.addServer(ServerDraft(name: "db1", host: "10.2.0.1", port: 5432, user: "pg",
                                                        tags: ["db"], note: "mine", credential: .vault), team: true)
        #expect(added.teamRevision == 0 && added.note == "mine")
        let outbox = try inventory.teamOutbox()
        #expect(outbox.count == 1)
        #expect(outbox[0].kind == .create && outbox[0].uid == added.uid && outbox[0].baseRevision == 0)
        #expect(outbox[0].base.isEmpty)
        #expect(outbox[0].mine == [.name: "db1", .host: "10.2.0.1", .port: "5432", .user: "pg", .jump: "",
                                   .tags: "db", .os: "auto"])
        // A later change is folded into the creation; removing it before a push leaves nothing to send.
        try inventory.updateServer(named: "db1", ServerChanges(port: 5433))
        #expect(try inventory.teamOutbox().map(\.kind) == [.create])
        #expect(try inventory.teamOutbox().first?.mine[.port] == "5433")
        try inventory.removeServer(named: "db1")
        #expect(try inventory.teamOutbox().isEmpty)
    }

    @Test func addingToTheTeamWithoutALinkSaysHowToJoin() throws {
        let inventory = try Inventory()
        #expect {
            try inventory.addServer(ServerDraft(name: "db1", host: "10.2.0.1"), team: true)
        } throws: { error in
            (error as? InventoryError)?.kind == .notLinked
                && (error as? InventoryError)?.message.contains("essh team join") == true
        }
        #expect(try inventory.serverCount() == 0)
    }

    @Test func pushedEditsLeaveTheOutboxAndTheBaseFollows() throws {
        let inventory = try synced(role: .editor)
        try inventory.updateServer(named: "web1", ServerChanges(port: 2200))
        let id = try #require(try inventory.teamOutbox().first?.id)
        try inventory.completeTeamEdits(ids: [id])
        #expect(try inventory.teamOutbox().isEmpty)
        #expect(try inventory.teamBase(uid: TeamFixture.uid(1))?.port == 2200)
        // The next change of that field starts from the pushed value.
        try inventory.updateServer(named: "web1", ServerChanges(port: 2300))
        #expect(try inventory.teamOutbox().first?.base == [.port: "2200"])
    }

    @Test func aRefusedEditIsRevertedToTheBase() throws {
        let inventory = try synced(role: .editor)
        try inventory.updateServer(named: "web1", ServerChanges(name: "web1-renamed", port: 2200, note: "kept"))
        try inventory.removeServer(named: "web2")
        let created = try inventory.addServer(ServerDraft(name: "db1", host: "10.2.0.1"), team: true)
        try inventory.revertTeamEdits(ids: try inventory.teamOutbox().compactMap(\.id))
        #expect(try inventory.teamOutbox().isEmpty)
        let web1 = try inventory.server(named: "web1")
        #expect(web1.port == 22 && web1.note == "kept")
        #expect(try inventory.server(named: "web2").uid == TeamFixture.uid(2))
        #expect(try inventory.server(named: "db1").uid == created.uid)
        #expect(try inventory.server(named: "db1").isShared == false)
    }

    @Test func droppedEditsLeaveTheRowsAsEdited() throws {
        let inventory = try synced(role: .editor)
        try inventory.updateServer(named: "web1", ServerChanges(port: 2200))
        try inventory.dropTeamEdits(ids: try inventory.teamOutbox().compactMap(\.id))
        #expect(try inventory.teamOutbox().isEmpty)
        #expect(try inventory.server(named: "web1").port == 2200)
    }

    @Test func importsDoNotChangeTheTeamsFields() throws {
        let inventory = try synced(role: .editor)
        let summary = try inventory.importServers([ServerDraft(name: "web1", host: "elsewhere.example.org",
                                                               keyPath: "~/.ssh/id")])
        #expect(summary.skipped.count == 1 && summary.skipped[0].hasPrefix("web1: shared with the team"))
        let web1 = try inventory.server(named: "web1")
        #expect(web1.host == "10.0.0.2" && web1.keyPath == "~/.ssh/id")
        #expect(try inventory.teamOutbox().isEmpty)
    }
}

@Suite struct TeamCacheConflictTests {
    private func conflicted() throws -> (Inventory, TeamConflict) {
        let inventory = try TeamFixture.inventory()
        try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1, revision: 4)], revision: 4))
        try inventory.updateServer(named: "web1", ServerChanges(host: "10.7.7.7", port: 2200))
        let edit = try #require(try inventory.teamOutbox().first)
        // The push found that bob set the port to 2022 meanwhile; the host went through.
        let conflict = TeamConflict(uid: TeamFixture.uid(1), name: "web1", field: .port, base: "22", mine: "2200",
                                    theirs: "2022", theirsBy: "bob", theirsRevision: 9)
        try inventory.recordTeamConflicts([conflict], replacing: [try #require(edit.id)])
        return (inventory, conflict)
    }

    @Test func aConflictIsKeptAndTheRowShowsTheTeamsValue() throws {
        let (inventory, conflict) = try conflicted()
        #expect(try inventory.teamConflicts() == [conflict])
        #expect(try inventory.teamOutbox().isEmpty)
        #expect(try inventory.server(named: "web1").port == 2022)
        #expect(try inventory.server(named: "web1").host == "10.7.7.7")
        #expect(try inventory.teamCounts() == TeamCounts(shared: 1, outbox: 0, conflicts: 1))
    }

    @Test func keepingMineQueuesAnUpdateAgainstTheirs() throws {
        let (inventory, _) = try conflicted()
        try inventory.resolveTeamConflict(uid: TeamFixture.uid(1), field: .port, keepMine: true)
        #expect(try inventory.teamConflicts().isEmpty)
        #expect(try inventory.server(named: "web1").port == 2200)
        let outbox = try inventory.teamOutbox()
        #expect(outbox.count == 1)
        #expect(outbox[0].kind == .update && outbox[0].baseRevision == 9)
        #expect(outbox[0].base == [.port: "2022"] && outbox[0].mine == [.port: "2200"])
    }

    @Test func keepingTheirsDropsTheConflict() throws {
        let (inventory, _) = try conflicted()
        try inventory.resolveTeamConflict(uid: TeamFixture.uid(1), field: .port, keepMine: false)
        #expect(try inventory.teamConflicts().isEmpty)
        #expect(try inventory.teamOutbox().isEmpty)
        #expect(try inventory.server(named: "web1").port == 2022)
        #expect(throws: InventoryError.self) {
            try inventory.resolveTeamConflict(uid: TeamFixture.uid(1), field: .port, keepMine: false)
        }
    }

    @Test func keepingMineOfAServerTheTeamRemovedAddsItAgain() throws {
        let inventory = try TeamFixture.inventory()
        try inventory.applyTeamChanges(TeamChanges(servers: [TeamFixture.shared(1, revision: 4)], revision: 4))
        try inventory.updateServer(named: "web1", ServerChanges(port: 2200))
        let edit = try #require(try inventory.teamOutbox().first?.id)
        try inventory.recordTeamConflicts([TeamConflict(uid: TeamFixture.uid(1), name: "web1", field: .port,
                                                        base: "22", mine: "2200", theirs: "", theirsDeleted: true,
                                                        theirsBy: "bob", theirsRevision: 9)], replacing: [edit])
        #expect(try inventory.findServer(named: "web1") == nil)
        try inventory.resolveTeamConflict(uid: TeamFixture.uid(1), field: .port, keepMine: true)
        let again = try inventory.server(named: "web1")
        #expect(again.port == 2200 && again.teamRevision == 0 && again.uid != TeamFixture.uid(1))
        let outbox = try inventory.teamOutbox()
        #expect(outbox.map(\.kind) == [.create] && outbox[0].uid == again.uid && outbox[0].mine[.port] == "2200")
    }

    @Test func aMemberCannotKeepTheirValue() throws {
        let (inventory, conflict) = try conflicted()
        var link = try #require(try inventory.teamLink())
        link.role = .member
        try inventory.saveTeamLink(link)
        #expect(throws: InventoryError.self) {
            try inventory.resolveTeamConflict(uid: conflict.uid, field: .port, keepMine: true)
        }
        #expect(try inventory.teamConflicts() == [conflict])
    }
}
