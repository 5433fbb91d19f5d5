import SSH
import Foundation
import Inventory
import Testing
import TUIKit
@testable import AppCore

@Suite("Session search and saving a quick-connected host: update")
struct SessionSearchTests {
    /// A session where `seq`-like output ran: lines "line 1" … "line 60", some with "needle".
    static func withOutput() -> AppState {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "gen")
        Fixtures.keys(&state, .enter)
        var text = ""
        for i in 1...60 { text += i % 20 == 0 ? "line \(i) needle here\n" : "line \(i)\n" }
        _ = Update.update(&state, .output(id: 1, bytes: Array(text.utf8)))
        _ = Update.update(&state, .commandFinished(id: 1, status: 0, signal: nil, at: Fixtures.now))
        return state
    }

    func currentLineText(_ state: AppState) -> String? {
        guard let session = state.session, let match = session.search?.current else { return nil }
        return session.scrollback[match.line]
    }

    @Test func ctrlFOpensTheBarAndTypingGoesIntoItNotTheCommandLine() {
        var state = Self.withOutput()
        Fixtures.type(&state, "ls")
        Fixtures.keys(&state, .ctrl("f"))
        Fixtures.type(&state, "NEEDLE")
        #expect(state.session?.search?.input.text == "NEEDLE")
        #expect(state.session?.input.text == "ls")
        let screen = Fixtures.screen(state)
        #expect(screen[22].hasPrefix("Find: NEEDLE"))
        #expect(screen[22].contains("Esc closes"))
    }

    @Test func enterFindsTheNewestMatchThenCtrlPAndCtrlNWalkOlderAndNewer() {
        var state = Self.withOutput()
        Fixtures.keys(&state, .pageUp, .pageUp, .pageUp)
        Fixtures.keys(&state, .ctrl("f"))
        Fixtures.type(&state, "needle")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(currentLineText(state) == "line 60 needle here")
        Fixtures.keys(&state, .ctrl("p"))
        #expect(currentLineText(state) == "line 40 needle here")
        Fixtures.keys(&state, .ctrl("p"))
        #expect(currentLineText(state) == "line 20 needle here")
        // The view scrolled to the match and stopped following the output.
        let line20 = state.session!.search!.current!.line
        #expect(state.session!.view.follow == false)
        #expect((state.session!.view.top..<(state.session!.view.top + 19)).contains(line20))
        #expect(Fixtures.screen(state).contains { $0.hasPrefix("line 20 needle here") })
        Fixtures.keys(&state, .ctrl("p"))
        #expect(currentLineText(state) == "line 60 needle here", "wraps around to the newest")
        Fixtures.keys(&state, .ctrl("n"))
        #expect(currentLineText(state) == "line 20 needle here", "wraps around to the oldest")
        Fixtures.keys(&state, .ctrl("n"))
        #expect(currentLineText(state) == "line 40 needle here")
    }

    @Test func aTermThatIsNotThereSaysSo() {
        var state = Self.withOutput()
        Fixtures.keys(&state, .ctrl("f"))
        Fixtures.type(&state, "haystack")
        Fixtures.keys(&state, .enter)
        #expect(state.session?.search?.current == nil)
        #expect(Fixtures.screen(state)[22].contains("not found"))
    }

    @Test func escClosesTheSearchWithoutStoppingTheCommandAndTheCommandLineComesBack() {
        var state = Self.withOutput()
        Fixtures.type(&state, "sleep 9")
        Fixtures.keys(&state, .enter)
        Fixtures.type(&state, "ls")
        Fixtures.keys(&state, .ctrl("f"))
        Fixtures.type(&state, "line")
        #expect(Fixtures.keys(&state, .escape).isEmpty, "Esc closes the search, the command keeps running")
        #expect(state.session?.search == nil)
        #expect(state.session?.running != nil)
        #expect(Fixtures.screen(state)[22].hasPrefix("> ls"))
        #expect(Fixtures.keys(&state, .escape) == [.cancelCommand])
    }

    @Test func ctrlNWithoutASearchSaysHowToStartOne() {
        var state = Self.withOutput()
        Fixtures.keys(&state, .ctrl("n"))
        #expect(state.notice == "Ctrl-F searches the output first.")
        #expect(SessionAction.table.conflictingKeys.isEmpty)
    }

    @Test func aQuickConnectedHostIsOfferedForSavingWithWhatTheLoginUsed() throws {
        var state = Fixtures.loaded()
        let effects = Fixtures.quickConnect(&state, "root@lab.example:2222")
        #expect(effects.count == 1)
        _ = Update.update(&state, .connected(os: .linux, auth: .keyFile(path: "/home/me/.ssh/id_ed25519"),
                                             at: Fixtures.now))
        Fixtures.keys(&state, .function(10))
        #expect(state.screen.kind == .summary)
        #expect(Fixtures.screen(state)[23].hasPrefix("s Save server"))
        Fixtures.keys(&state, .character("s"))
        #expect(state.screen.kind == .form)
        let form = try #require(state.form)
        #expect(form.purpose == .addServer)
        #expect(form.text("name") == "lab.example")
        #expect(form.text("host") == "lab.example")
        #expect(form.text("port") == "2222")
        #expect(form.text("user") == "root")
        #expect(form.text("auth") == "key")
        #expect(form.text("key") == "/home/me/.ssh/id_ed25519")
        #expect(form.text("os") == "linux")
        let save = Fixtures.keys(&state, .enter)
        #expect(save == [.saveServer(ServerDraft(name: "lab.example", host: "lab.example", port: 2222, user: "root",
                                                 auth: .key, keyPath: "/home/me/.ssh/id_ed25519", os: .linux,
                                                 tags: [], note: ""), replacing: nil)])
    }

    @Test func aPasswordLoginIsSavedAsPasswordAndASavedServerIsNotOfferedAgain() {
        var state = Fixtures.loaded()
        Fixtures.quickConnect(&state, "10.1.2.3")
        _ = Update.update(&state, .connected(os: nil, auth: .keyboardInteractive, at: Fixtures.now))
        Fixtures.keys(&state, .function(10))
        Fixtures.keys(&state, .character("s"))
        #expect(state.form?.text("auth") == "password")
        #expect(state.form?.text("user") == "")
        #expect(state.form?.text("os") == "auto")

        var saved = Fixtures.inSession()
        Fixtures.keys(&saved, .function(10))
        #expect(saved.summary?.unsaved == nil)
        Fixtures.keys(&saved, .character("s"))
        #expect(saved.screen.kind == .summary)
    }
}
