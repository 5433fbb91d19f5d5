import Fleet
import Foundation
import Inventory
import InteractiveShell
import Testing
import TUIKit
@testable import AppCore

/// The screen shown carries its own state (`Screen`): what belongs to a screen goes with it, what outlives it
/// stays, and the session's scrollback is changed in place whatever reaches it.
@Suite("Screen state")
struct ScreenStateTests {
    /// A session whose 100-line scrollback is full, so a line added reuses the ring's storage: its address stays the
    /// same exactly when nothing copied the ring.
    static func fullSession() -> AppState {
        var state = AppState(size: Size(width: 80, height: 24), now: Fixtures.now, localUser: "me")
        _ = Update.update(&state, .loaded(servers: Fixtures.servers, checks: [:],
                                          settings: ["session.scrollback": "100"]))
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .connected(os: .linux, at: Fixtures.now))
        Fixtures.type(&state, "seq 1 300")
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .output(id: 1, bytes: Array((1...150).map { "\($0)\n" }.joined().utf8)))
        return state
    }

    @Test func outputKeysTicksAndAShellNeverCopyTheScrollback() throws {
        var state = Self.fullSession()
        let address = try #require(state.session?.scrollback.storageAddress)
        func same(_ what: String) {
            #expect(state.session?.scrollback.storageAddress == address, "\(what) copied the scrollback")
        }
        _ = Update.update(&state, .output(id: 1, bytes: Array((151...300).map { "\($0)\n" }.joined().utf8)))
        same("output")
        _ = Update.update(&state, .commandFinished(id: 1, status: 0, signal: nil, at: Fixtures.now))
        same("the end of a command")
        Fixtures.keys(&state, .pageUp, .pageUp, .end)
        same("scrolling keys")
        _ = Update.update(&state, .input(.wheelUp))
        same("the mouse wheel")
        Fixtures.type(&state, "uptime")
        Fixtures.keys(&state, .enter)
        same("running a command")
        _ = Update.update(&state, .output(id: 2, bytes: Array("up 3 days\n".utf8)))
        _ = Update.update(&state, .commandFinished(id: 2, status: 0, signal: nil, at: Fixtures.now))
        _ = Update.update(&state, .tick(Fixtures.now.addingTimeInterval(30)))
        same("a tick (keepalive)")
        _ = Update.update(&state, .history(["uptime"]))
        same("the history")
        // A shell opened from the session: its summary keeps the session, and back shows it again.
        Fixtures.keys(&state, .function(8))
        _ = Update.update(&state, .handedBack(.shell(ShellOutcome(end: .escape, duration: 2))))
        #expect(state.screen.kind == .summary)
        same("the shell's end line")
        Fixtures.keys(&state, .enter)
        #expect(state.screen.kind == .session)
        same("going back to the session")
    }

    @Test func aServerSavedAfterThePersonMovedOnLeavesTheScreenAlone() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("a"))
        #expect(state.screen.kind == .form)
        // Esc leaves the form before the store answers, then Enter connects.
        Fixtures.keys(&state, .escape, .enter)
        #expect(state.screen.kind == .connecting)
        #expect(Update.update(&state, .serverSaved("box")) == [.load])
        #expect(state.screen.kind == .connecting, "the connection being made is still shown")
        #expect(state.notice == "Saved box.")
    }

    @Test func aSavedServerClosesTheFormShown() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("a"))
        #expect(Update.update(&state, .serverSaved("box")) == [.load])
        #expect(state.screen.kind == .servers && state.form == nil)
    }

    @Test func aConnectionFailureWithNoConnectionBeingMadeChangesNoScreen() {
        var state = Fixtures.inSession()
        _ = Update.update(&state, .connectFailed("Cancelled."))
        #expect(state.screen.kind == .session, "the open session stays")
        #expect(state.dialog?.message == "Cancelled.")
    }

    @Test func theFilterBarClosesWithTheServersScreen() {
        // `/` before the list is loaded; then autoconnect leaves the Servers screen, and fails.
        var state = AppState(size: Size(width: 80, height: 24), now: Fixtures.now, localUser: "me")
        Fixtures.keys(&state, .character("/"))
        #expect(state.isFiltering)
        _ = Update.update(&state, .loaded(servers: Fixtures.servers, checks: [:],
                                          settings: ["ui.autoconnect": "web1"]))
        #expect(state.screen.kind == .connecting && !state.isFiltering)
        _ = Update.update(&state, .connectFailed("refused"))
        #expect(state.screen.kind == .servers)
        // The keys are the list's again: `a` adds a server instead of typing into the filter.
        Fixtures.keys(&state, .enter)
        Fixtures.keys(&state, .character("a"))
        #expect(state.screen.kind == .form)
        #expect(state.filter.text.isEmpty)
    }

    @Test func aFleetRunLeftStaysAsTheLastRunUntilANewRunReplacesIt() throws {
        var state = Fixtures.loaded(size: Size(width: 100, height: 30))
        Fixtures.keys(&state, .character("x"))
        Fixtures.type(&state, "uname")
        Fixtures.keys(&state, .enter)
        let first = try #require(state.fleetRun?.id)
        #expect(state.screen.kind == .fleet && state.fleet.lastRun == nil)
        _ = Update.update(&state, .fleetFinished(id: first, at: Fixtures.now))
        Fixtures.keys(&state, .escape)
        #expect(state.screen.kind == .servers)
        #expect(state.fleet.lastRun?.id == first)
        Fixtures.keys(&state, .character("x"))
        Fixtures.type(&state, "id")
        Fixtures.keys(&state, .enter)
        #expect(state.fleetRun?.id == first + 1 && state.fleet.lastRun == nil)
        // A late result of the replaced run lands nowhere.
        _ = Update.update(&state, .fleetResult(id: first, index: 0, FleetResult(name: "web1", status: .ok)))
        #expect(state.fleetRun?.results[0].status == .waiting)
    }
}
