import Foundation
import Mail
import Testing
import TUIKit
@testable import AppCore

/// The status line's notice belongs to the screen it was said on: another screen never shows it, and leaving that
/// screen drops it.
@Suite("Notices: scope and lifetime")
struct NoticeTests {
    /// The start-up check ends while `x` asks for the command: its line is the Servers screen's, not the run's.
    @Test func aCheckEndingUnderTheFleetQuestionIsNotShownOnTheFleetScreen() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("x"))
        _ = Update.update(&state, .checkFinished(error: nil, at: Fixtures.now))
        #expect(state.notice == "Checked 4 servers: 2 online.")
        Fixtures.type(&state, "uptime")
        Fixtures.keys(&state, .enter)
        #expect(state.screen.kind == .fleet)
        #expect(state.notice == nil)
        let status = Fixtures.screen(state)[22]
        #expect(!status.contains("Checked") && status.contains("1 server: 1 waiting"), "\(status)")
        // Back on the Servers screen the old line does not come back either.
        Fixtures.keys(&state, .escape, .escape)
        #expect(state.screen.kind == .servers && state.notice == nil)
    }

    /// The outbox's result is said in the session; once the session is over, the Servers screen has its own line.
    @Test func theOutboxLineOfASessionIsNotShownOnTheServersScreen() {
        var state = Fixtures.inSession()
        let pending = PendingMail(id: 1, recipients: "a@example.org", subject: "s", bytes: [], attempts: 1,
                                  lastError: nil)
        _ = Update.update(&state, .mailRetried([.init(mail: pending, error: nil)], error: nil))
        #expect(state.notice == "Outbox: 1 sent, 0 still waiting.")
        #expect(Fixtures.screen(state).contains { $0.contains("Outbox: 1 sent") })
        Fixtures.keys(&state, .function(10))
        #expect(state.screen.kind == .summary && state.notice == nil)
        Fixtures.keys(&state, .enter)
        #expect(state.screen.kind == .servers)
        #expect(!Fixtures.screen(state).contains { $0.contains("Outbox") })
    }

    /// A notice set while the session is taken out of the state (`withSession`) is the session's.
    @Test func aNoticeSetInsideTheSessionBelongsToTheSession() {
        var state = Fixtures.inSession()
        state.withSession { _, state in state.notice = "from the session" }
        #expect(state.notice == "from the session")
        #expect(Fixtures.screen(state).contains { $0.contains("from the session") })
    }
}
