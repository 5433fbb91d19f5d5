import Foundation
import Inventory
import Testing

@Suite struct InventoryServersTests {
    private func kind(_ body: () throws -> Void) -> InventoryError.Kind? {
        do {
            try body()
            return nil
        } catch let error as InventoryError {
            #expect(!error.message.isEmpty)
            return error.kind
        } catch {
            return nil
        }
    }

    @Test func aSavedServerIsFoundByNameWithItsFields() throws {
        let inventory = try Inventory()
        let saved = try inventory.addServer(ServerDraft(
            name: "web1", host: "10.0.0.5", port: 2222, user: "deploy", keyPath: "~/.ssh/id_ed25519", os: .linux,
            tags: ["web", "prod", "web"], note: "front"))
        let found = try inventory.server(named: "web1")
        #expect(found == saved)
        #expect(found.id != nil)
        #expect(found.auth == .key)
        #expect(found.tags == ["prod", "web"])
        #expect(found.expandedKeyPath(home: "/home/u") == "/home/u/.ssh/id_ed25519")
        #expect(try inventory.addServer(ServerDraft(name: "db", host: "db.lan")).auth == .agent)
    }

    @Test func badInputIsRefusedWithItsKind() throws {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "a", host: "h"))
        #expect(kind { try inventory.addServer(ServerDraft(name: "a", host: "other")) } == .duplicateName)
        #expect(kind { try inventory.addServer(ServerDraft(name: "b", host: "")) } == .invalidHost)
        #expect(kind { try inventory.addServer(ServerDraft(name: "b", host: "  ")) } == .invalidHost)
        #expect(kind { try inventory.addServer(ServerDraft(name: "b", host: "h", port: 0)) } == .invalidPort)
        #expect(kind { try inventory.addServer(ServerDraft(name: "b", host: "h", port: 65536)) } == .invalidPort)
        #expect(kind { try inventory.addServer(ServerDraft(name: "", host: "h")) } == .invalidName)
        #expect(kind { try inventory.addServer(ServerDraft(name: "tag:x", host: "h")) } == .invalidName)
        #expect(kind { try inventory.addServer(ServerDraft(name: "b", host: "h", auth: .key)) } == .invalidValue)
        #expect(kind { _ = try inventory.server(named: "nope") } == .unknownServer)
        #expect(kind { try inventory.removeServer(named: "nope") } == .unknownServer)
        #expect(kind { try inventory.updateServer(named: "nope", ServerChanges(port: 1)) } == .unknownServer)
        #expect(try inventory.serverCount() == 1)
    }

    @Test func aDraftListsEveryRuleItBreaksByField() {
        let draft = ServerDraft(name: "a b", host: "-h", port: 0, user: "x@y", auth: .key, tags: ["p q"])
        #expect(draft.problems.map(\.field) == [.name, .host, .port, .user, .key, .tags])
        #expect(draft.problems.first?.message.contains("cannot be a server name") == true)
        #expect(ServerDraft(name: "web1", host: "10.0.0.5", user: "ops").problems.isEmpty)
        for bad in ["*", "a?", "b!", "c,d", "#e", "\"f", "-g", "tag:h"] {
            #expect(ServerDraft(name: bad, host: "h").problems.map(\.field) == [.name], "\(bad)")
        }
    }

    @Test func editingChangesOnlyTheGivenFieldsAndCanRename() throws {
        let inventory = try Inventory()
        let before = try inventory.addServer(ServerDraft(name: "a", host: "h", user: "u", tags: ["x"]),
                                             at: Date(timeIntervalSince1970: 1000))
        let after = try inventory.updateServer(named: "a", ServerChanges(name: "b", port: 2200, tags: ["y", "z"]),
                                               at: Date(timeIntervalSince1970: 2000))
        #expect(after.name == "b" && after.port == 2200 && after.user == "u" && after.host == "h")
        #expect(after.tags == ["y", "z"])
        #expect(after.createdAt == before.createdAt)
        #expect(after.updatedAt == Date(timeIntervalSince1970: 2000))
        #expect(try inventory.findServer(named: "a") == nil)
        try inventory.addServer(ServerDraft(name: "c", host: "h"))
        #expect(kind { try inventory.updateServer(named: "c", ServerChanges(name: "b")) } == .duplicateName)
        #expect(kind { try inventory.updateServer(named: "c", ServerChanges(port: -1)) } == .invalidPort)
        #expect(try inventory.server(named: "c").port == 22)
    }

    @Test func listingFiltersByTagInNameOrder() throws {
        let inventory = try Inventory()
        for (name, tags) in [("zeta", ["prod"]), ("Alpha", ["prod", "db"]), ("mid", [])] {
            try inventory.addServer(ServerDraft(name: name, host: "h", tags: tags))
        }
        #expect(try inventory.servers().map(\.name) == ["Alpha", "mid", "zeta"])
        #expect(try inventory.servers(taggedWith: "prod").map(\.name) == ["Alpha", "zeta"])
        #expect(try inventory.servers(taggedWith: "none").isEmpty)
    }

    @Test func importingAddsNewNamesAndUpdatesSavedOnesKeepingTagsAndNotes() throws {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "web", host: "old", tags: ["t"], note: "keep"))
        let first = try inventory.importServers([
            ServerDraft(name: "web", host: "new", port: 2022), ServerDraft(name: "db", host: "db"),
            ServerDraft(name: "bad name", host: "x"),
        ])
        #expect(first.added == ["db"] && first.updated == ["web"] && first.unchanged.isEmpty)
        #expect(first.skipped.count == 1)
        let web = try inventory.server(named: "web")
        #expect(web.host == "new" && web.port == 2022 && web.tags == ["t"] && web.note == "keep")
        let again = try inventory.importServers([ServerDraft(name: "web", host: "new", port: 2022)])
        #expect(again.unchanged == ["web"] && again.added.isEmpty && again.updated.isEmpty)
        #expect(try inventory.serverCount() == 2)
    }

    /// An import adds the tunnels a server does not have yet, after those saved (one made in eSSH is never lost),
    /// and counts the tunnels that came in.
    @Test func importingAddsNewTunnelsAfterTheSavedOnesAndCountsThem() throws {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "web", host: "web", forwards: ["L:8080:localhost:80"]))
        let first = try inventory.importServers([
            ServerDraft(name: "web", host: "web", forwards: ["D:1080", "L:8080:localhost:80"]),
            ServerDraft(name: "db", host: "db", forwards: ["L:5432:localhost:5432", "R:9000:localhost:3000"]),
        ])
        #expect(first.updated == ["web"] && first.added == ["db"] && first.tunnels == 3)
        #expect(try inventory.server(named: "web").forwards == ["L:8080:localhost:80", "D:1080"])
        #expect(try inventory.server(named: "db").forwards == ["L:5432:localhost:5432", "R:9000:localhost:3000"])
        let again = try inventory.importServers([ServerDraft(name: "web", host: "web", forwards: [])])
        #expect(again.unchanged == ["web"] && again.tunnels == 0)
        #expect(try inventory.server(named: "web").forwards == ["L:8080:localhost:80", "D:1080"])
    }

    @Test func removingAServerRemovesItsResultsAndHistory() throws {
        let inventory = try Inventory()
        let server = try inventory.addServer(ServerDraft(name: "a", host: "h"))
        try inventory.recordCheckResults([CheckResult(serverId: server.id!, status: .online, latencyMs: 1,
                                                      banner: "SSH-2.0-x", error: nil, checkedAt: Date())])
        try inventory.appendHistory(serverNamed: "a", command: "uptime", exitStatus: 0)
        try inventory.removeServer(named: "a")
        #expect(try inventory.lastCheckResults().isEmpty)
        try inventory.addServer(ServerDraft(name: "a", host: "h"))
        #expect(try inventory.history(serverNamed: "a").isEmpty)
    }

    @Test func removingSeveralServersIsAllOrNothingAndNamesEveryMissingOne() throws {
        let inventory = try Inventory()
        for name in ["a", "b", "c"] { try inventory.addServer(ServerDraft(name: name, host: "h")) }
        do {
            try inventory.removeServers(named: ["a", "ghost", "c", "phantom"])
            Issue.record("removing with missing names should fail")
        } catch {
            #expect(error.kind == .unknownServer)
            #expect(error.message.contains("'ghost', 'phantom'") && error.message.contains("nothing was removed"))
        }
        #expect(try inventory.servers().map(\.name) == ["a", "b", "c"])
        #expect(try inventory.removeServers(named: ["c", "a", "c"]) == ["c", "a"])
        #expect(try inventory.servers().map(\.name) == ["b"])
    }

    @Test func theLastCheckResultOfEveryServerIsAvailableAndOldOnesArePruned() throws {
        let inventory = try Inventory()
        let a = try inventory.addServer(ServerDraft(name: "a", host: "h")).id!
        let b = try inventory.addServer(ServerDraft(name: "b", host: "h")).id!
        for round in 0..<30 {
            try inventory.recordCheckResults([
                CheckResult(serverId: a, status: round == 29 ? .online : .timeout, latencyMs: round == 29 ? 2.5 : nil,
                            banner: nil, error: nil, checkedAt: Date(timeIntervalSince1970: Double(round))),
                CheckResult(serverId: b, status: .refused, latencyMs: nil, banner: nil, error: "connection refused",
                            checkedAt: Date(timeIntervalSince1970: Double(round))),
            ])
        }
        let last = try inventory.lastCheckResults()
        #expect(last[a]?.status == .online && last[a]?.latencyMs == 2.5)
        #expect(last[b]?.error == "connection refused")
        #expect(last[a]?.checkedAt == Date(timeIntervalSince1970: 29))
        #expect(try inventory.checkResults(serverNamed: "a").count == 20)
    }

    @Test func historyIsAppendedAndListedNewestFirst() throws {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "a", host: "h"))
        try inventory.addServer(ServerDraft(name: "b", host: "h"))
        for (i, (command, status)) in ([("uptime", 0), ("false", 1), ("sleep 99", nil)] as [(String, Int?)]).enumerated() {
            try inventory.appendHistory(serverNamed: "a", command: command, exitStatus: status,
                                        at: Date(timeIntervalSince1970: Double(i + 1)))
        }
        try inventory.appendHistory(serverNamed: "b", command: "ls", exitStatus: 0)
        let history = try inventory.history(serverNamed: "a")
        #expect(history.map(\.command) == ["sleep 99", "false", "uptime"])
        #expect(history.map(\.exitStatus) == [nil, 1, 0])
        #expect(try inventory.history(serverNamed: "a", limit: 1).count == 1)
        #expect(kind { try inventory.appendHistory(serverNamed: "zz", command: "x", exitStatus: 0) } == .unknownServer)
    }

    @Test func fleetCommandsHaveOneHistoryNewestFirstThatOutlivesTheirServers() throws {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "a", host: "h"))
        for (i, command) in ["uptime", "df -h /", "uptime"].enumerated() {
            try inventory.appendFleetHistory(command: command, serverCount: i + 2,
                                             at: Date(timeIntervalSince1970: Double(i + 1)))
        }
        try inventory.removeServer(named: "a")
        let history = try inventory.fleetHistory()
        #expect(history.map(\.command) == ["uptime", "df -h /", "uptime"])
        #expect(history.map(\.serverCount) == [4, 3, 2])
        #expect(try inventory.fleetHistory(limit: 1).map(\.command) == ["uptime"])
    }

    @Test func settingsAreStoredAsTextAndCanBeRemoved() throws {
        let inventory = try Inventory()
        #expect(try inventory.setting("ui.theme") == nil)
        try inventory.setSetting("ui.theme", to: "dark")
        try inventory.setSetting("ui.theme", to: "light")
        try inventory.setSetting("check.timeout", to: "2")
        #expect(try inventory.setting("ui.theme") == "light")
        #expect(try inventory.allSettings() == ["ui.theme": "light", "check.timeout": "2"])
        try inventory.setSetting("ui.theme", to: nil)
        #expect(try inventory.setting("ui.theme") == nil)
    }

    @Test func aConnectionIsRecordedWithTheDetectedOS() throws {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "a", host: "h"))
        try inventory.recordConnection(named: "a", os: .linux, at: Date(timeIntervalSince1970: 5))
        let server = try inventory.server(named: "a")
        #expect(server.os == .linux && server.lastConnectedAt == Date(timeIntervalSince1970: 5))
    }

    @Test func theDatabaseLocationFollowsOptionThenEnvironmentThenXDG() {
        #expect(DatabaseLocation.resolve(option: "/x/a.db", environment: ["ESSH_DB": "/y/b.db"]) == "/x/a.db")
        #expect(DatabaseLocation.resolve(option: nil, environment: ["ESSH_DB": "/y/b.db"]) == "/y/b.db")
        #expect(DatabaseLocation.resolve(option: nil, environment: ["HOME": "/h", "XDG_DATA_HOME": "/d"])
                == "/d/essh/essh.db")
        #expect(DatabaseLocation.resolve(option: nil, environment: ["HOME": "/h"]) == "/h/.local/share/essh/essh.db")
        #expect(DatabaseLocation.resolve(option: nil, environment: ["HOME": "/h", "XDG_DATA_HOME": "rel"])
                == "/h/.local/share/essh/essh.db")
        #expect(DatabaseLocation.resolve(option: "~/e.db", environment: ["HOME": "/h"]) == "/h/e.db")
    }
}

/// A server's jump chain: stored as written, cleared with `none`, refused when it is no chain.
@Suite struct ServerJumpTests {
    @Test func aJumpChainIsStoredAsWrittenAndNoneClearsIt() throws {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "bastion", host: "10.0.0.1"))
        let saved = try inventory.addServer(ServerDraft(name: "db1", host: "10.1.2.3", jump: "bastion, admin@gw:2222"))
        #expect(saved.jump == "bastion, admin@gw:2222")
        #expect(try inventory.server(named: "db1").jump == "bastion, admin@gw:2222")
        #expect(try inventory.addServer(ServerDraft(name: "direct", host: "h", jump: "none")).jump == "")
        let cleared = try inventory.updateServer(named: "db1", ServerChanges(jump: "none"))
        #expect(cleared.jump == "")
        #expect(try inventory.updateServer(named: "db1", ServerChanges(jump: "bastion")).jump == "bastion")
        #expect(try inventory.updateServer(named: "db1", ServerChanges(note: "x")).jump == "bastion",
                "other changes leave it")
    }

    @Test func aChainThatIsNoChainIsRefusedOnItsField() throws {
        func problem(_ jump: String, name: String = "db1") -> ServerProblem? {
            ServerDraft(name: name, host: "h", jump: jump).problems.first
        }
        #expect(problem("bastion") == nil && problem("") == nil && problem("NONE") == nil)
        #expect(problem("a,,b")?.field == .jump)
        #expect(problem("a,,b")?.message.hasPrefix("Hop 2 of the jump chain 'a,,b' is empty") == true)
        #expect(problem("gw:0")?.message.contains("is not a number from 1 to 65535") == true)
        #expect(problem("db1")?.message.hasPrefix("'db1' cannot be its own jump host") == true)
        #expect(problem((1...9).map { "h\($0)" }.joined(separator: ","))?.message.contains("at most 8") == true)
        #expect(problem("a\u{1b}b")?.controlCharacter == true)
        let inventory = try Inventory()
        #expect(throws: InventoryError.self) { try inventory.addServer(ServerDraft(name: "x", host: "h", jump: "a,")) }
    }
}

/// Saved tunnels: stored in order, added, removed and cleared by `ServerChanges`, kept by edits that do not name
/// them, with the autostart flag; the v7 migration adds them to a database that has servers already.
@Suite struct InventoryForwardsTests {
    @Test func forwardsAreStoredInOrderAndChangedByAddRemoveAndClear() throws {
        let inventory = try Inventory()
        let saved = try inventory.addServer(ServerDraft(name: "db1", host: "10.1.2.3",
                                                        forwards: ["L:5432:localhost:5432", "D:1080", "D:1080"],
                                                        autostart: true))
        #expect(saved.forwards == ["L:5432:localhost:5432", "D:1080"])
        #expect(try inventory.server(named: "db1").forwards == ["L:5432:localhost:5432", "D:1080"])
        #expect(try inventory.server(named: "db1").autostart)
        var changes = ServerChanges(forwards: ForwardChanges(add: ["R:8080:localhost:80", "D:1080"],
                                                             remove: ["L:5432:localhost:5432"]))
        #expect(try inventory.updateServer(named: "db1", changes).forwards == ["D:1080", "R:8080:localhost:80"])
        // An edit of other fields keeps them.
        #expect(try inventory.updateServer(named: "db1", ServerChanges(note: "x")).forwards
                == ["D:1080", "R:8080:localhost:80"])
        changes = ServerChanges(forwards: ForwardChanges(clear: true, add: ["D:1081"]), autostart: false)
        let cleared = try inventory.updateServer(named: "db1", changes)
        #expect(cleared.forwards == ["D:1081"] && !cleared.autostart)
        #expect(try inventory.updateServer(named: "db1", ServerChanges(forwards: ForwardChanges(clear: true)))
                .forwards.isEmpty)
    }

    @Test func aForwardWithAControlCharacterIsRefused() throws {
        let inventory = try Inventory()
        #expect(throws: InventoryError.self) {
            try inventory.addServer(ServerDraft(name: "db1", host: "h", forwards: ["D:1080\nL:1:h:2"]))
        }
    }
}
