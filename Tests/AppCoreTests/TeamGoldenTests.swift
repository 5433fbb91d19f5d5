import Foundation
import Inventory
import Testing
import TestSupport
import TUIKit
@testable import AppCore

/// The Servers screen of a member linked to a team (issue 18), whole, against reviewed files in Golden/: the marker
/// column, the team line with what another member saw, in Unicode and ASCII, wide and narrow; a member's refusal
/// in the form.
@Suite("Team screens: golden")
struct TeamGoldenTests {
    let directory = Golden.directory(besides: #filePath)

    static let unreachable = TeamStatus.Problem.unreachable("could not connect to 127.0.0.1:5432: connection refused")

    static func state(size: Size, unicode: Bool = true, problem: TeamStatus.Problem? = nil, conflicts: Int = 0)
        -> AppState {
        let checks = ["uid-web1": [TeamCheck(serverUid: "uid-web1", member: "ana", status: "online", latencyMs: 3,
                                             checkedAt: Fixtures.now.addingTimeInterval(-120))]]
        var state = TeamServersTests.linked(TeamServersTests.status(
            problem: problem, queued: 2, conflicts: conflicts, checks: checks), size: size)
        state.unicode = unicode
        return state
    }

    /// Synced, with ana's check of the selected web1 beside the member's own.
    @Test func teamServersAt80x24() throws {
        let state = Self.state(size: Size(width: 80, height: 24))
        try Golden.check(Fixtures.screen(state), named: "team-servers-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "team-servers-80x24.style", in: directory)
    }

    @Test func teamServersInASCIIAt80x24() throws {
        // Unreachable with a conflict: the status's words keep the line, what ana saw gives way.
        let state = Self.state(size: Size(width: 80, height: 24), unicode: false, problem: Self.unreachable,
                               conflicts: 1)
        try Golden.check(Fixtures.screen(state), named: "team-servers-ascii-80x24", in: directory)
    }

    @Test func teamServersAt40x10() throws {
        let state = Self.state(size: Size(width: 40, height: 10), problem: Self.unreachable)
        try Golden.check(Fixtures.screen(state), named: "team-servers-40x10", in: directory)
    }

    @Test func aMembersRefusalInTheFormAt80x24() throws {
        var state = Self.state(size: Size(width: 80, height: 24))
        Fixtures.keys(&state, .character("e"))
        _ = Update.update(&state, .serverSaveFailed(
            "'web1' is the team's server: only the team's editors may change its shared fields (here host); you are "
                + "a member. Its personal fields (note, credential, key, algorithms, tunnels) are yours to change."))
        try Golden.check(Fixtures.screen(state), named: "team-refusal-form-80x24", in: directory)
    }
}
