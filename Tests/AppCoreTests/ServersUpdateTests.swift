import Operations
import Foundation
import Inventory
import Reachability
import Testing
import TUIKit
@testable import AppCore

@Suite("Servers screen: update")
struct ServersUpdateTests {
    @Test func startupShowsStoredChecksAndStartsABackgroundCheck() {
        var state = AppState(size: Size(width: 80, height: 24), now: Fixtures.now, localUser: "me")
        let effects = Update.update(&state, .loaded(servers: Fixtures.servers, checks: Fixtures.checks, settings: [:]))
        #expect(state.checks[1]?.status == .online)
        #expect(state.checks[1]?.latencyMs == 1.4)
        #expect(state.checking == CheckProgress(done: 0, total: 4))
        #expect(effects.count == 1)
        guard case .check(let targets, let timeout)? = effects.first?.work else {
            Issue.record("expected a check, got \(effects)")
            return
        }
        #expect(targets[2] == CheckTarget(host: "db.example.com", port: 2222))
        #expect(timeout == 3)
    }

    @Test func checkResultsUpdateTheListAndTheProgress() {
        var state = Fixtures.loaded()
        _ = Update.update(&state, .checkResult(serverId: 2, status: .online, latencyMs: 7, at: Fixtures.now))
        #expect(state.checks[2]?.status == .online)
        #expect(state.checking?.done == 1)
        _ = Update.update(&state, .checkFinished(error: nil, at: Fixtures.now))
        #expect(state.checking == nil)
        #expect(state.notice == "Checked 4 servers: 3 online.")
        #expect(Fixtures.keys(&state, .character("c")).count == 1)
        #expect(Fixtures.keys(&state, .character("c")).isEmpty, "a second c while checking starts nothing")
    }

    /// A check started on the servers screen that ends once a session is open leaves the session's status alone
    /// (it used to cover a finished command's "exit 0" with "Checked 1 server").
    @Test func aCheckEndingDuringASessionDoesNotCoverItsStatus() {
        var state = Fixtures.loaded()
        _ = Update.update(&state, .checkResult(serverId: 2, status: .online, latencyMs: 7, at: Fixtures.now))
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .connected(os: .linux, at: Fixtures.now))
        #expect(state.screen.kind == .session)
        state.notice = nil
        _ = Update.update(&state, .checkFinished(error: nil, at: Fixtures.now))
        #expect(state.checking == nil)
        #expect(state.notice == nil)
    }

    @Test func slashFiltersAsYouTypeAndEscClears() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("/"))
        Fixtures.type(&state, "PROD")
        #expect(state.visibleServers.map(\.name) == ["web1", "db-main"])
        Fixtures.keys(&state, .down, .enter)
        #expect(!state.isFiltering)
        #expect(state.selectedServer?.name == "db-main")
        Fixtures.keys(&state, .escape)
        #expect(state.visibleServers.count == 4)
    }

    @Test func enterConnectsToTheSelectedServer() {
        var state = Fixtures.loaded()
        let effects = Fixtures.keys(&state, .down, .enter)
        #expect(state.screen.kind == .connecting)
        #expect(effects == [.connect(ConnectionProfile(server: Fixtures.servers[1]), knownHosts: "")])
    }

    @Test func deleteAsksFirstAndKeepIsTheDefault() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("d"))
        #expect(state.dialog?.purpose == .confirmDelete("web1"))
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.dialog == nil)
        Fixtures.keys(&state, .character("d"), .left)
        #expect(Fixtures.keys(&state, .enter) == [.deleteServer("web1")])
    }

    @Test func qQuitsAndNothingHappensOnAnEmptyList() {
        var state = AppState(size: Size(width: 80, height: 24), now: Fixtures.now, localUser: "me")
        _ = Update.update(&state, .loaded(servers: [], checks: [:], settings: [:]))
        #expect(Fixtures.keys(&state, .enter, .character("e"), .character("d")).isEmpty)
        #expect(state.screen.kind == .servers)
        Fixtures.keys(&state, .character("q"))
        #expect(state.shouldQuit)
    }

    @Test func theFirstStartWithNoServersOffersToImportSSHConfigOnce() {
        var state = AppState(size: Size(width: 80, height: 24), now: Fixtures.now, localUser: "me")
        let effects = Update.update(&state, .loaded(servers: [], checks: [:], settings: [:]))
        #expect(effects.contains(.work(.findSSHConfigHosts)))
        _ = Update.update(&state, .sshConfigHosts(["lab1", "lab2"]))
        #expect(state.dialog?.purpose == .importSSHConfig)
        #expect(Fixtures.screen(state).contains { $0.contains("Your ~/.ssh/config names 2 hosts: lab1, lab2.") })
        // One key imports; the list is loaded again once it is done.
        #expect(Fixtures.keys(&state, .character("i")) == [.work(.importSSHConfig)])
        #expect(state.dialog == nil)
        #expect(Update.update(&state, .sshConfigImported("Imported ~/.ssh/config: 2 added, 0 updated, 0 skipped."))
                == [.load])
        #expect(state.notice == "Imported ~/.ssh/config: 2 added, 0 updated, 0 skipped.")
    }

    @Test func declinedTheImportIsRememberedAndNotOfferedAgain() {
        var state = AppState(size: Size(width: 80, height: 24), now: Fixtures.now, localUser: "me")
        _ = Update.update(&state, .loaded(servers: [], checks: [:], settings: [:]))
        _ = Update.update(&state, .sshConfigHosts(["lab1"]))
        #expect(Fixtures.keys(&state, .character("n")) == [.work(.declineSSHConfigImport)])
        _ = Update.update(&state, .sshConfigHosts(["lab1"]))
        #expect(Fixtures.keys(&state, .escape) == [.work(.declineSSHConfigImport)], "Esc answers no too")
        var next = AppState(size: Size(width: 80, height: 24), now: Fixtures.now, localUser: "me")
        let effects = Update.update(&next, .loaded(servers: [], checks: [:],
                                                   settings: [Update.sshConfigOfferSetting: "declined"]))
        #expect(!effects.contains(.work(.findSSHConfigHosts)))
        // Servers saved meanwhile, or a dialog already open: no offer.
        var full = Fixtures.loaded()
        #expect(!Update.update(&full, .loaded(servers: Fixtures.servers, checks: [:], settings: [:]))
                    .contains(.work(.findSSHConfigHosts)))
        _ = Update.update(&full, .sshConfigHosts(["lab1"]))
        #expect(full.dialog == nil)
    }

    @Test func autoconnectConnectsToTheNamedServerOnce() {
        var state = AppState(size: Size(width: 80, height: 24), now: Fixtures.now, localUser: "me")
        let effects = Update.update(&state, .loaded(servers: Fixtures.servers, checks: [:],
                                                    settings: ["ui.autoconnect": "win-build"]))
        #expect(effects.contains(.connect(ConnectionProfile(server: Fixtures.servers[3]), knownHosts: "")))
        #expect(state.screen.kind == .connecting)
    }

    @Test func everyKeyTableIsFreeOfConflicts() {
        #expect(ServersAction.table.conflictingKeys.isEmpty)
        #expect(FormAction.table.conflictingKeys.isEmpty)
        #expect(SessionAction.table.conflictingKeys.isEmpty)
        #expect(SummaryAction.table.conflictingKeys.isEmpty)
    }
}
