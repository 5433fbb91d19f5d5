import Foundation
import SSH
import Testing
import TUIKit
@testable import AppCore

/// Overlays on small and wide screens: the help wraps and scrolls to every word, a question over the Connecting
/// screen hides its spinner (which goes to the bottom line), the Quick connect form says what Enter does.
@Suite("Overlays: layout on small and wide screens")
struct OverlayLayoutTests {
    /// At 40x10 each description wraps instead of being cut, and ↓ / j / Space / End reach every line.
    @Test func helpAt40x10WrapsEveryDescriptionAndScrollsToTheEnd() throws {
        var state = Fixtures.loaded(size: Size(width: 40, height: 10))
        Fixtures.keys(&state, .character("?"))
        var seen: [String] = []
        var previous: [String] = []
        for _ in 0..<200 {
            let screen = Fixtures.screen(state)
            seen += screen
            if screen == previous { break }
            previous = screen
            Fixtures.keys(&state, .character("j"))
        }
        #expect(!seen.joined().contains("…"), "nothing is cut")
        // Every row was on screen, and the rows put back together give every description whole.
        let rows = HelpOverlay.lines(state)
        for row in rows where !row.description.isEmpty {
            #expect(seen.contains { $0.contains(row.description) }, "\(row.description)")
        }
        var joined: [String] = []
        // (A row with keys and no description is the rest of the keys above: `Esc/F1/?/q` then `Enter`.)
        for row in rows where !row.isTitle && !row.description.isEmpty {
            if row.keys.isEmpty, !joined.isEmpty { joined[joined.count - 1] += " " + row.description } else {
                joined.append(row.description)
            }
        }
        let all = HelpOverlay.sections(.servers).flatMap(\.items).map(\.description)
        #expect(joined == all)
        // The last row of the help (the words of its last line) is on the box's last row.
        let lastWords = try #require(rows.last(where: { !$0.description.isEmpty })?.description
            .split(separator: " ").suffix(2).joined(separator: " "))
        #expect(Fixtures.screen(state)[8].contains(lastWords), "j went to the end: \(Fixtures.screen(state))")
        Fixtures.keys(&state, .character("g"))
        #expect(Fixtures.screen(state)[1].contains("Connect to the"))
        Fixtures.keys(&state, .character(" "))
        #expect(state.overlays.help?.top == 8)
        Fixtures.keys(&state, .character("G"))
        #expect(Fixtures.screen(state) == previous)
    }

    /// The spinner's line is wider than the password box at 120 columns: it must not show on both sides of it.
    @Test func aQuestionOverTheConnectingScreenMovesTheSpinnerToTheBottomLine() {
        var state = Fixtures.loaded(size: Size(width: 120, height: 35))
        Fixtures.keys(&state, .down)
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .connectStage("Logging in (password) with a long stage name"))
        _ = Update.update(&state, .prompt(PromptRequest(id: 1, kind: .password(user: "postgres",
                                                                                host: "db.example.com", attempt: 1))))
        let screen = Fixtures.screen(state)
        let spinnerLines = screen.indices.filter { screen[$0].contains("Connecting to") }
        #expect(spinnerLines == [34], "\(screen)")
        #expect(!screen[..<34].contains { $0.contains("Conne") || $0.contains("stage name") })
        #expect(screen.contains { $0.contains("Password for postgres@db.example.com:") })
        // Once answered, the spinner is back in the middle with Esc's hint.
        Fixtures.keys(&state, .enter)
        let after = Fixtures.screen(state)
        #expect(after[17].contains("Connecting to postgres@db.example.com:2222") && after[34].contains("Esc: cancel"))
    }

    @Test func theQuickConnectFormSaysEnterConnects() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("n"))
        let keys = Fixtures.screen(state)[23]
        #expect(keys.hasPrefix("Enter Connect") && !keys.contains("Save"), "\(keys)")
        Fixtures.keys(&state, .function(1))
        #expect(HelpOverlay.lines(state).contains { $0.description.hasPrefix("Connect to the host typed") })
        Fixtures.keys(&state, .escape, .escape, .character("a"))
        #expect(Fixtures.screen(state)[23].hasPrefix("Enter Save"))
    }
}
