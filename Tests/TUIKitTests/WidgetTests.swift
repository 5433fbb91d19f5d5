import Foundation
import Testing
import TUIKit

@Suite struct WidgetTests {
    @Test func boxesDrawUnicodeOrASCIIBordersAndReturnTheInside() {
        var buffer = Buffer(width: 10, height: 3)
        let inner = Box(title: "Servers", border: .ascii).render(in: buffer.area, buffer: &buffer)
        #expect(inner == Rect(x: 1, y: 1, width: 8, height: 1))
        #expect(buffer.lines() == ["+ Serve… +", "|        |", "+--------+"])
    }

    @Test func dialogsCentreTheirMessageAndMarkTheFocusedButton() {
        var buffer = Buffer(width: 30, height: 7)
        buffer.fill(buffer.area, with: Cell("."))
        Dialog(title: "Delete", message: "Delete db-01?", buttons: ["Yes", "No"], selected: 1)
            .render(in: buffer.area, buffer: &buffer)
        #expect(buffer.lines() == [
            "..............................",
            "...┌ Delete ──────────────┐...",
            "...│ Delete db-01?        │...",
            "...│                      │...",
            "...│   [ Yes ]  [ No ]    │...",
            "...└──────────────────────┘...",
            "..............................",
        ])
        #expect(buffer[17, 4].style.attributes.contains(.reverse))
        #expect(!buffer[8, 4].style.attributes.contains(.reverse))
    }

    /// A message taller than the room left scrolls: its lines never run into the buttons, a word is never cut at the
    /// bottom, `↓ more` says there is more, and buttons too wide for the box lose their brackets, not their words.
    @Test func aTallDialogScrollsAboveItsButtonsAndNarrowButtonsKeepTheirWords() {
        let dialog = Dialog(title: "Unknown host key",
                            message: "eSSH has never seen [127.0.0.2]:34857 before. Its ssh-ed25519 key has the "
                                + "fingerprint SHA256:bvw5d7vYlKncZ8AAbrVNU6+AIhOlD8v/HmgxX4r2fXc. Trust it?",
                            buttons: ["Accept and save", "Once", "Cancel"])
        var buffer = Buffer(width: 36, height: 8)
        let layout = dialog.layout(in: buffer.area)
        #expect(layout.rows == 4 && layout.lines.count > 4)
        dialog.render(in: buffer.area, buffer: &buffer)
        let lines = buffer.lines()
        #expect(lines[5].hasPrefix("│") && lines[5].contains("↓ more"), "\(lines)")
        #expect(lines[6] == "│ Accept and save   Once   Cancel  │", "\(lines)")
        // The highlighted first button shows which one Enter takes.
        #expect(buffer[2, 6].style.attributes.contains(.reverse) && !buffer[20, 6].style.attributes.contains(.reverse))
        // Scrolled to its end, every word of the message has been on screen whole.
        var seen: [String] = []
        for top in 0...layout.lastTop {
            var scrolled = dialog
            scrolled.top = top
            var page = Buffer(width: 36, height: 8)
            scrolled.render(in: page.area, buffer: &page)
            seen += page.lines()[1...4].map { $0.dropFirst(2).dropLast(2).trimmingCharacters(in: .whitespaces) }
        }
        #expect(Set(seen) == Set(layout.lines))
        #expect(layout.lines.joined(separator: " ").contains("SHA256:bvw5d7vYlKncZ8AAbrVNU6+AI hOlD8v/HmgxX4r2fXc."))
        var last = dialog
        last.top = 99
        var bottom = Buffer(width: 36, height: 8)
        last.render(in: bottom.area, buffer: &bottom)
        #expect(bottom.lines()[0].contains("↑ more") && !bottom.lines()[5].contains("↓ more"))
    }

    /// A question wider than the box wraps onto more lines (the box grows), so nothing of it is cut.
    @Test func aQuestionBoxWrapsItsQuestionAndKeepsTheFieldAndTheHint() {
        var buffer = Buffer(width: 40, height: 12)
        var field = TextField(masked: true)
        field.insert("x")
        let cursor = QuestionBox(title: "Password", question: "Password for a-very-long-user@host.example.com "
                                    + "(the second attempt of three):", hint: "Enter: send   Esc: give up", width: 50)
            .render(field, in: buffer.area, buffer: &buffer)
        let lines = buffer.lines()
        let text = lines.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }
        #expect(text.contains("Password for a-very-long-user@host.example.com") || text.contains {
            $0.hasPrefix("Password for") })
        #expect(text.contains { $0.hasSuffix("three):") }, "\(lines)")
        #expect(text.contains("*"))
        #expect(text.contains("Enter: send   Esc: give up"))
        #expect(cursor.map { lines[$0.y].contains("*") } == true)
    }

    /// A message (a host key's fingerprint) goes above the question, whole; a problem with the last answer takes the
    /// hint's place, in its own style.
    @Test func aQuestionBoxCarriesAMessageAboveTheQuestionAndAProblemInPlaceOfTheHint() {
        var buffer = Buffer(width: 60, height: 16)
        let fingerprint = "SHA256:ayM+GOKAw8kgtZu625qoSAfulA8VYBgO1+5+mxrc2TM"
        let box = QuestionBox(title: "Unknown host key", question: "Trust it? Type yes, once or no:",
                              hint: "Enter: answer   Esc: refuse",
                              message: "Its ssh-ed25519 key has the fingerprint \(fingerprint).\nThis key is already "
                                  + "known as web1.", problem: "Type yes, once or no (Esc refuses the key).", width: 76,
                              problemStyle: Style(attributes: .reverse))
        _ = box.render(TextField(), in: buffer.area, buffer: &buffer)
        let lines = buffer.lines()
        let text = lines.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")) }
        let message = text.firstIndex { $0.contains(fingerprint) }
        let question = text.firstIndex { $0.hasPrefix("Trust it?") }
        #expect(message != nil && question != nil && message! < question!, "\(lines)")
        #expect(text.contains("This key is already known as web1."))
        let problemRow = text.firstIndex { $0 == "Type yes, once or no (Esc refuses the key)." }
        #expect(problemRow != nil && !text.contains("Enter: answer   Esc: refuse"), "\(lines)")
        if let problemRow, let x = lines[problemRow].range(of: "Type").map({ lines[problemRow].distance(
            from: lines[problemRow].startIndex, to: $0.lowerBound) }) {
            #expect(buffer[x, problemRow].style.attributes.contains(.reverse))
        }
        var plain = Buffer(width: 60, height: 16)
        var calm = box
        calm.problem = nil
        _ = calm.render(TextField(), in: plain.area, buffer: &plain)
        #expect(plain.lines().contains { $0.contains("Enter: answer   Esc: refuse") })
    }

    /// On a short screen the question, the field and the hint keep their rows and the message scrolls (`top`), with
    /// `↓ more` / `↑ more` saying there is more.
    @Test func aQuestionBoxScrollsAMessageTooTallForTheScreen() {
        let box = QuestionBox(title: "Key", question: "Trust it?", hint: "Enter: answer",
                              message: (1...9).map { "line \($0)" }.joined(separator: "\n"), width: 30)
        var buffer = Buffer(width: 30, height: 9)
        let layout = box.layout(in: buffer.area)
        #expect(layout.messageRows == 3 && layout.lastTop == 6 && layout.footer, "\(layout)")
        let cursor = box.render(TextField(), in: buffer.area, top: 0, buffer: &buffer)
        var lines = buffer.lines()
        #expect(lines.contains { $0.contains("line 1") } && !lines.contains { $0.contains("line 4") }, "\(lines)")
        #expect(lines.contains { $0.contains("↓ more") } && !lines.contains { $0.contains("↑ more") })
        #expect(lines.contains { $0.contains("Trust it?") } && lines.contains { $0.contains("Enter: answer") })
        #expect(cursor.map { lines[$0.y - 1].contains("Trust it?") } == true, "the field is under the question")
        buffer = Buffer(width: 30, height: 9)
        box.render(TextField(), in: buffer.area, top: 99, buffer: &buffer)
        lines = buffer.lines()
        #expect(lines.contains { $0.contains("line 9") } && !lines.contains { $0.contains("line 6") }, "\(lines)")
        #expect(lines.contains { $0.contains("↑ more") } && !lines.contains { $0.contains("↓ more") })
        // With room for everything, nothing scrolls.
        #expect(box.layout(in: Rect(x: 0, y: 0, width: 30, height: 24)).lastTop == 0)
    }

    @Test func spinnerCyclesThroughItsFrames() {
        #expect((0..<5).map { Spinner.ascii.frame($0) } == ["|", "/", "-", "\\", "|"])
        var buffer = Buffer(width: 12, height: 1)
        Spinner.ascii.render(tick: 1, label: "connecting", in: buffer.area, buffer: &buffer)
        #expect(buffer.lines() == ["/ connecting"])
    }

    @Test func statusBarRightSideGivesWayToTheLeft() {
        var buffer = Buffer(width: 20, height: 1)
        StatusBar(left: ["root@web-01"], right: ["00:12"]).render(in: buffer.area, buffer: &buffer)
        #expect(buffer.lines() == ["root@web-01    00:12"])
        var narrow = Buffer(width: 14, height: 1)
        StatusBar(left: ["root@web-01"], right: ["00:12"]).render(in: narrow.area, buffer: &narrow)
        #expect(narrow.lines() == ["root@web-01   "])
        #expect(narrow[13, 0].style.attributes.contains(.reverse))
    }

    @Test func aTooSmallTerminalGetsAMessageInsteadOfTheLayout() {
        let guardian = SizeGuard()
        #expect(guardian.fits(Size(width: 40, height: 10)))
        #expect(!guardian.fits(Size(width: 39, height: 24)))
        #expect(!guardian.fits(Size(width: 80, height: 9)))
        var buffer = Buffer(width: 39, height: 5)
        #expect(guardian.renderIfTooSmall(into: &buffer))
        #expect(buffer.lines().joined().contains("Terminal too small (39x5)"))
        var fine = Buffer(width: 40, height: 10)
        #expect(!guardian.renderIfTooSmall(into: &fine))
        #expect(fine == Buffer(width: 40, height: 10))
    }
}
