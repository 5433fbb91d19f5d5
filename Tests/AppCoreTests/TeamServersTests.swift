import Basics
import Foundation
import Inventory
import Operations
import Testing
import TUIKit
@testable import AppCore

/// The Servers screen of a member linked to a team (issue 18): the marker of shared servers, the team line, what
/// other members saw, and a sync's reload that keeps the selection and the filter.
@Suite("Servers screen: team")
struct TeamServersTests {
    static let now = Fixtures.now

    /// web1 and db-main shared (web1 with a published check by ana), café-ünï and win-build personal.
    static var servers: [Server] {
        var servers = Fixtures.servers
        servers[0].uid = "uid-web1"
        servers[0].teamRevision = 4
        servers[1].uid = "uid-db"
        servers[1].teamRevision = 0
        servers[2].uid = "uid-cafe"
        servers[3].uid = "uid-win"
        return servers
    }

    static func status(lastSync: Date? = now.addingTimeInterval(-3 * 3600), problem: TeamStatus.Problem? = nil,
                       queued: Int = 0, conflicts: Int = 0, checks: [String: [TeamCheck]] = [:]) -> TeamStatus {
        TeamStatus(member: "me_role", role: .editor, revision: 12, lastSync: lastSync, problem: problem,
                   queued: queued, conflicts: conflicts, checks: checks)
    }

    static func linked(_ status: TeamStatus = status(), size: Size = Size(width: 80, height: 24)) -> AppState {
        var state = AppState(size: size, now: now, localUser: "me")
        _ = Update.update(&state, .loaded(servers: servers, checks: Fixtures.checks, settings: [:]))
        _ = Update.update(&state, .checkFinished(error: nil, at: now))
        _ = Update.update(&state, .team(status, changed: false))
        return state
    }

    // MARK: the team line's words

    @Test func theTeamLineSaysWhenItSyncedAndWhatWaits() {
        #expect(Self.status().line(now: Self.now) == "team: synced 3 h ago")
        #expect(Self.status(queued: 2, conflicts: 1).line(now: Self.now) == "team: synced 3 h ago · 2 queued · 1 conflict")
        #expect(Self.status(conflicts: 3).line(now: Self.now) == "team: synced 3 h ago · 3 conflicts")
        #expect(Self.status(lastSync: Self.now.addingTimeInterval(-20)).line(now: Self.now) == "team: synced just now")
        #expect(Self.status(lastSync: nil).line(now: Self.now) == "team: never synced")
    }

    @Test func theTeamLineSaysTheServerIsUnreachableWithTheReason() {
        let line = Self.status(problem: .unreachable("connection refused"), queued: 1).line(now: Self.now)
        #expect(line == "team: synced 3 h ago, server unreachable · 1 queued — connection refused")
        #expect(Self.status(problem: .unreachable("x")).line(now: Self.now)
            .hasPrefix("team: synced 3 h ago, server unreachable"))
        #expect(Self.status(problem: .failed("no eSSH schema")).line(now: Self.now)
            == "team: synced 3 h ago, sync failed — no eSSH schema")
    }

    @Test func theTeamLineSaysAPasswordIsNeededAndHowToGiveIt() {
        #expect(Self.status(problem: .needsPassword).line(now: Self.now)
            == "team: needs the database password — run essh team sync once")
    }

    @Test func seenByIsTheFreshestCheckOfAnotherMember() {
        let checks = ["uid-web1": [
            TeamCheck(serverUid: "uid-web1", member: "bob", status: "timeout", latencyMs: nil,
                      checkedAt: Self.now.addingTimeInterval(-3600)),
            TeamCheck(serverUid: "uid-web1", member: "ana", status: "online", latencyMs: 3,
                      checkedAt: Self.now.addingTimeInterval(-120)),
            // The member's own published check is theirs, not another's.
            TeamCheck(serverUid: "uid-web1", member: "me_role", status: "refused", latencyMs: nil,
                      checkedAt: Self.now.addingTimeInterval(-10)),
        ]]
        let status = Self.status(checks: checks)
        #expect(status.seenBy(uid: "uid-web1", now: Self.now) == "online (seen by ana, 2 min ago)")
        #expect(status.seenBy(uid: "uid-db", now: Self.now) == nil)
        let onlyMine = Self.status(checks: ["uid-web1": [checks["uid-web1"]![2]]])
        #expect(onlyMine.seenBy(uid: "uid-web1", now: Self.now) == nil)
    }

    // MARK: on screen

    @Test func sharedServersCarryAMarkerAndPersonalOnesDoNot() {
        let lines = Fixtures.screen(Self.linked())
        let web = lines.first { $0.contains("web1") } ?? ""
        let db = lines.first { $0.contains("db-main") } ?? ""
        let cafe = lines.first { $0.contains("café-ünï") } ?? ""
        #expect(web.contains("⇄"), "\(web)")
        #expect(db.contains("⇄"), "a shared server not pushed yet is the team's too: \(db)")
        #expect(!cafe.contains("⇄"), "\(cafe)")
        var ascii = Self.linked()
        ascii.unicode = false
        let asciiWeb = Fixtures.screen(ascii).first { $0.contains("web1") } ?? ""
        #expect(asciiWeb.hasPrefix("* T web1") || asciiWeb.hasPrefix("● T web1") || asciiWeb.contains(" T web1"),
                "\(asciiWeb)")
    }

    @Test func aPersonalListHasNoMarkerColumnAndNoTeamLine() {
        let lines = Fixtures.screen(Fixtures.loaded())
        #expect(!lines.joined().contains("⇄"))
        #expect(!lines.joined().contains("team:"))
        let web = lines.first { $0.contains("web1") } ?? ""
        #expect(web.hasPrefix("● web1"), "the columns are as before: \(web)")
    }

    @Test func theTeamLineIsShownAboveTheStatusLine() {
        let state = Self.linked(Self.status(problem: .unreachable("could not connect"), queued: 2))
        let lines = Fixtures.screen(state)
        #expect(lines[21].hasPrefix(" team: synced 3 h ago, server unreachable · 2 queued — could not connect"),
                "\(lines[21])")
        let password = Fixtures.screen(Self.linked(Self.status(problem: .needsPassword)))
        #expect(password[21].contains("team: needs the database password — run essh team sync once"))
    }

    @Test func theSelectedSharedServerShowsWhatAnotherMemberSawBesideItsOwnResult() {
        let checks = ["uid-web1": [TeamCheck(serverUid: "uid-web1", member: "ana", status: "online", latencyMs: 3,
                                             checkedAt: Self.now.addingTimeInterval(-120))]]
        var state = Self.linked(Self.status(checks: checks))
        #expect(state.selectedServer?.name == "web1")
        let line = Fixtures.screen(state)[21]
        #expect(line.contains("you: 1.4 ms · online (seen by ana, 2 min ago)"), "\(line)")
        Fixtures.keys(&state, .down)
        #expect(!Fixtures.screen(state)[21].contains("seen by"), "db-main has no published check")
    }

    // MARK: updates

    @Test func changedSharedRowsAreReadAgainKeepingTheSelectionAndTheFilter() {
        var state = Self.linked()
        Fixtures.keys(&state, .character("/"))
        Fixtures.type(&state, "prod")
        Fixtures.keys(&state, .enter)
        Fixtures.keys(&state, .down)
        #expect(state.selectedServer?.uid == "uid-db")
        #expect(Update.update(&state, .team(Self.status(), changed: true)) == [.load])
        #expect(Update.update(&state, .team(Self.status(), changed: false)).isEmpty)
        // Another member renamed db-main to "a-db" (now first by name) and added a prod server.
        var servers = Self.servers
        servers[1].name = "a-db"
        servers.append(Fixtures.server(7, "app-prod", host: "10.0.0.7", tags: ["prod"]))
        servers[4].uid = "uid-new"
        servers[4].teamRevision = 13
        _ = Update.update(&state, .loaded(servers: servers, checks: [:], settings: [:]))
        #expect(state.filter.text == "prod")
        #expect(state.visibleServers.map(\.name).sorted() == ["a-db", "app-prod", "web1"])
        #expect(state.selectedServer?.uid == "uid-db", "selected by uid, not by the old name")
        #expect(state.selectedServer?.name == "a-db")
    }

    @Test func aSaveOrARemovalWhileLinkedSyncsAtOnce() {
        var state = Self.linked()
        #expect(Update.update(&state, .serverSaved("web1")) == [.load, .work(.syncTeam)])
        #expect(Update.update(&state, .serverDeleted("web1")) == [.load, .work(.syncTeam)])
        var personal = Fixtures.loaded()
        #expect(Update.update(&personal, .serverSaved("web1")) == [.load])
        #expect(Update.update(&personal, .serverDeleted("web1")) == [.load])
    }

    @Test func theMembersRefusalIsShownWholeInTheForm() {
        var state = Self.linked()
        Fixtures.keys(&state, .character("e"))
        #expect(state.form != nil)
        let refusal = "'web1' is the team's server: only the team's editors may change its shared fields (here "
            + "host); you are a member. Its personal fields (note, credential, key, algorithms, tunnels) are yours "
            + "to change."
        _ = Update.update(&state, .serverSaveFailed(refusal))
        #expect(state.form?.error == refusal)
        let shown = Fixtures.screen(state).joined(separator: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        #expect(shown.contains("are yours to change."), "the end of the refusal is on screen")
        #expect(shown.contains("only the team's editors may change its shared fields"))
    }
}
