import Testing
import TUIKit

enum KeyTestAction: Equatable, Sendable { case quit, help, refresh, find }

@Suite struct KeyBindingTests {
    let table = KeyBindingTable<KeyTestAction>([
        KeyBinding([.character("q"), .function(10)], .quit, label: "Quit", description: "Leave eSSH"),
        KeyBinding([.character("?")], .help, label: "Help", description: "Show the keys"),
        KeyBinding([.ctrl("r")], .refresh, description: "Check every server now"),
        KeyBinding([.character("/")], .find, label: "Filter", description: "Filter by name, host or tag"),
    ])

    @Test func theTableDispatchesKeysToActions() {
        #expect(table.action(for: .character("q")) == .quit)
        #expect(table.action(for: .function(10)) == .quit)
        #expect(table.action(for: .ctrl("r")) == .refresh)
        #expect(table.action(for: .character("x")) == nil)
        #expect(table.conflictingKeys.isEmpty)
        let broken = KeyBindingTable<KeyTestAction>([KeyBinding([.enter], .quit, description: "a"),
                                              KeyBinding([.enter], .help, description: "b")])
        #expect(broken.conflictingKeys == [.enter])
    }

    @Test func altKeysAreTheirOwnKeysAndSayAlt() {
        let alt = KeyBindingTable<KeyTestAction>([KeyBinding([.function(2), .alt("2")], .help, description: "h")])
        #expect(alt.action(for: .alt("2")) == .help)
        #expect(alt.action(for: .character("2")) == nil)
        #expect(alt.helpItems.first?.keys == "F2/Alt-2")
    }

    @Test func theKeyBarShowsLabelledBindingsAndDropsWhatDoesNotFit() {
        var buffer = Buffer(width: 40, height: 1)
        KeyBar(table: table).render(in: buffer.area, buffer: &buffer)
        #expect(buffer.lines() == ["q Quit  ? Help  / Filter" + String(repeating: " ", count: 16)])
        var narrow = Buffer(width: 14, height: 1)
        KeyBar(table: table).render(in: narrow.area, buffer: &narrow)
        #expect(narrow.lines() == ["q Quit  ? Help"])
        #expect(buffer[0, 0].style.attributes.contains(.reverse))
    }

    @Test func oneSpaceBetweenItemsWhenThatShowsMoreOfThem() {
        // "q Quit  ? Help  / Filter" needs 24 columns, "q Quit ? Help / Filter" 22: at 22 one space shows all three;
        // at 20 neither shows more than two, so the roomier two spaces stay.
        var wide = Buffer(width: 22, height: 1)
        KeyBar(table: table).render(in: wide.area, buffer: &wide)
        #expect(wide.lines() == ["q Quit ? Help / Filter"])
        var twenty = Buffer(width: 20, height: 1)
        KeyBar(table: table).render(in: twenty.area, buffer: &twenty)
        #expect(twenty.lines() == ["q Quit  ? Help      "])
    }

    @Test func theHelpScreenListsEveryBinding() {
        #expect(table.helpItems.map(\.keys) == ["q/F10", "?", "^R", "/"])
        var buffer = Buffer(width: 40, height: 6)
        HelpView(table: table).render(in: buffer.area, buffer: &buffer)
        #expect(buffer.lines() == [
            "┌ Keys ────────────────────────────────┐",
            "│ q/F10  Leave eSSH                    │",
            "│ ?      Show the keys                 │",
            "│ ^R     Check every server now        │",
            "│ /      Filter by name, host or tag   │",
            "└──────────────────────────────────────┘",
        ])
    }
}
