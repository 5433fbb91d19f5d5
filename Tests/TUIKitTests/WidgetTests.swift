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
