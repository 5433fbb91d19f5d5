import Foundation
import Mail
import Testing
import TUIKit
@testable import AppCore

/// One stack of overlays decides both which one gets a key (the top) and the drawing order (bottom to top).
@Suite("Overlay stack")
struct OverlayStackTests {
    @Test func aDialogOpenedOverTheHelpIsDrawnOnTopAndTakesTheKeys() {
        var state = Fixtures.inSession()
        Fixtures.keys(&state, .function(1))
        #expect(state.showHelp)
        // A mail fails while the help is open: its dialog goes on top of the help.
        _ = Update.update(&state, .mailFinished(.failure(MailError(.sendmailMissing, "x", "There is no sendmail.")),
                                                to: ["ops@example.org"]))
        #expect(state.overlays.items.map(\.kind) == [.help, .dialog])
        let screen = Fixtures.screen(state).joined(separator: "\n")
        #expect(screen.contains("There is no sendmail."))
        // Enter goes to the dialog (it closes), not to the help under it.
        Fixtures.keys(&state, .enter)
        #expect(state.dialog == nil && state.showHelp)
        Fixtures.keys(&state, .escape)
        #expect(state.overlays.isEmpty)
    }

    @Test func openingAKindThatIsOpenReplacesItWhereItIs() {
        var stack = OverlayStack()
        stack.open(.help(HelpState()))
        stack.open(.dialog(DialogState(purpose: .notice, title: "a", message: "", buttons: ["OK"])))
        stack.open(.help(HelpState(top: 3)))
        #expect(stack.items.map(\.kind) == [.help, .dialog])
        #expect(stack.help == HelpState(top: 3))
        stack.dialog = nil
        #expect(stack.items.map(\.kind) == [.help])
    }

    @Test func leavingAScreenClosesItsOverlaysButNotADialog() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "df -h")
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .commandFinished(id: 1, status: 0, signal: nil, at: Fixtures.now))
        Fixtures.keys(&state, .function(7))
        #expect(state.outputTool?.kind == .save)
        state.dialog = DialogState(purpose: .notice, title: "Mail not sent", message: "m", buttons: ["OK"])
        // The session ends: its form goes with it, the dialog stays over the summary.
        _ = Update.endSession(&state, reason: "gone")
        #expect(state.screen.kind == .summary)
        #expect(state.overlays.items.map(\.kind) == [.dialog])
    }

    @Test func theWheelScrollsTheHelpWhenItIsOnTop() {
        var state = Fixtures.inSession()
        Fixtures.keys(&state, .function(1))
        _ = Update.update(&state, .input(.wheelDown))
        #expect(state.overlays.help?.top == 1)
        #expect(Fixtures.screen(state).contains { $0.contains("↑ more") })
        Fixtures.keys(&state, .end)
        let bottom = state.overlays.help?.top ?? 0
        Fixtures.keys(&state, .pageDown)
        #expect(state.overlays.help?.top == bottom)
        #expect(!Fixtures.screen(state).contains { $0.contains("↓ more") })
    }
}
