import Foundation
import Inventory
import Operations
import Testing
import TUIKit
@testable import AppCore

/// `I` on the Servers screen: the key install's effect, each step into its box, the end, and the switch question
/// (No by default; Yes saves the server through the store's edit).
@Suite("Servers screen: key install")
struct KeyInstallUpdateTests {
    /// The servers loaded, web1 saved with a password login.
    static func withPasswordServer(size: Size = Size(width: 80, height: 24)) -> AppState {
        var state = AppState(size: size, now: Fixtures.now, localUser: "me")
        var servers = Fixtures.servers
        servers[0].auth = .password
        _ = Update.update(&state, .loaded(servers: servers, checks: Fixtures.checks, settings: [:]))
        _ = Update.update(&state, .checkFinished(error: nil, at: Fixtures.now))
        state.notice = nil
        return state
    }

    /// `I` on web1, then `events` from the worker.
    static func installed(_ events: [KeyInstallEvent], size: Size = Size(width: 80, height: 24)) -> AppState {
        var state = withPasswordServer(size: size)
        Fixtures.keys(&state, .character("I"))
        for event in events { _ = Update.update(&state, .keyInstall(event)) }
        return state
    }

    static let steps: [KeyInstallEvent] = [
        .progress("The key: SHA256:abc (/home/me/.ssh/id_ed25519.pub)"),
        .progress("Logged in to web1 with the password."),
        .progress("Made ~/.ssh (mode 700)."),
        .progress("Appended the key to ~/.ssh/authorized_keys."),
        .progress("Logged in again with the key /home/me/.ssh/id_ed25519 (SHA256:abc) alone."),
    ]

    @Test func capitalIOnAServerAsksTheWorkerToInstallOnIt() {
        var state = Self.withPasswordServer()
        let effects = Fixtures.keys(&state, .character("I"))
        var profile = ConnectionProfile(server: Fixtures.servers[0])
        profile.auth = .password
        #expect(effects == [.work(.installKey(profile, knownHosts: ""))])
        #expect(state.keyInstall == KeyInstallState(server: "web1", lines: ["Installing your public key on web1…"]))
        // While it runs, the list's keys do nothing; Esc cancels.
        #expect(Fixtures.keys(&state, .character("I"), .enter, .character("d")).isEmpty)
        #expect(state.dialog == nil && state.screen.kind == .servers)
        #expect(Fixtures.keys(&state, .escape) == [.work(.cancelKeyInstall)])
        #expect(state.keyInstall?.lines.last == "Cancelling…")
        _ = Update.update(&state, .keyInstall(.failed("Cancelled.")))
        #expect(state.keyInstall?.phase == .failed)
        Fixtures.keys(&state, .escape)
        #expect(state.keyInstall == nil)
    }

    @Test func eachStepIsALineAndTheEndOffersTheSwitchWithNoSelected() {
        var state = Self.installed(Self.steps)
        #expect(state.keyInstall?.lines.count == 6)
        #expect(state.keyInstall?.lines.last == "Logged in again with the key /home/me/.ssh/id_ed25519 (SHA256:abc) alone.")
        #expect(state.keyInstall?.phase == .running)
        _ = Update.update(&state, .keyInstall(.installed(offer: .keyFile("/home/me/.ssh/id_ed25519"))))
        #expect(state.keyInstall?.phase == .installed)
        let dialog = state.dialog
        #expect(dialog?.purpose == .switchToKey(server: "web1", to: .keyFile("/home/me/.ssh/id_ed25519")))
        #expect(dialog?.buttons == ["No", "Yes"] && dialog?.selected == 0)
        // Enter on the default: nothing is saved, and the box says how to switch later.
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.dialog == nil)
        #expect(state.keyInstall?.lines.last == "web1 still logs in by password (e edits it).")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.keyInstall == nil)
    }

    @Test func yesSavesTheServerWithKeyLoginThroughTheStore() {
        var state = Self.installed(Self.steps + [.installed(offer: .keyFile("/home/me/.ssh/id_ed25519"))])
        let effects = Fixtures.keys(&state, .right, .enter)
        guard case .saveServer(let draft, let replacing)? = effects.first?.work, effects.count == 1 else {
            Issue.record("expected a save, got \(effects)")
            return
        }
        #expect(replacing == "web1")
        #expect(draft.auth == .key && draft.keyPath == "/home/me/.ssh/id_ed25519")
        #expect(draft.host == "10.0.0.5" && draft.user == "admin" && draft.tags == ["prod", "web"])
        #expect(state.keyInstall?.lines.last == "Switching web1 to the key /home/me/.ssh/id_ed25519…")
        // The agent's keys: the server is saved with agent login, no key file.
        var agent = Self.installed(Self.steps + [.installed(offer: .agent)])
        guard case .saveServer(let agentDraft, _)? = Fixtures.keys(&agent, .character("y")).first?.work else {
            Issue.record("expected a save")
            return
        }
        #expect(agentDraft.auth == .agent && agentDraft.keyPath == nil)
        // A save that fails with no form shown is said on the status line.
        _ = Update.update(&agent, .serverSaveFailed("The database is locked."))
        #expect(agent.notice == "The database is locked.")
    }

    @Test func noOfferNoQuestionAndAFailureIsItsSentence() {
        var state = Self.installed(Self.steps + [.installed(offer: nil)])
        #expect(state.dialog == nil && state.keyInstall?.phase == .installed)
        let failed = Self.installed([.progress("The key: SHA256:abc (/home/me/.ssh/id_ed25519.pub)"),
                                     .failed("Could not log in to web1: the password was refused.")])
        #expect(failed.keyInstall?.phase == .failed && failed.dialog == nil)
        #expect(failed.keyInstall?.lines.suffix(2) == ["Could not log in to web1: the password was refused.",
                                                       "Nothing was changed here."])
        // Events after the end (a late one) change nothing.
        _ = Update.update(&state, .keyInstall(.progress("late")))
        #expect(state.keyInstall?.lines.last != "late")
    }

    @Test func capitalIIsInTheHelp() {
        #expect(ServersAction.table.action(for: .character("I")) == .installKey)
        #expect(ServersAction.table.conflictingKeys.isEmpty)
    }
}
