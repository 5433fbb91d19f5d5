import Foundation
import Inventory
import NetParsers
import Testing
import TUIKit
@testable import AppCore

/// Every key lives in a key table, and every table's keys are in the help of the screen it is used on.
@Suite("Key tables")
struct KeyTableTests {
    /// Each screen with every table whose keys work on it (its own, its bars', its overlays').
    static let tablesByScreen: [(Screen.Kind, [[(keys: String, description: String)]])] = [
        (.servers, [ServersAction.table.helpItems, FilterAction.table.helpItems, FleetQuestionAction.table.helpItems,
                    HistorySearchAction.table.helpItems, DialogAction.table.helpItems, HelpAction.table.helpItems,
                    GlobalAction.table.helpItems]),
        (.form, [FormAction.table.helpItems, HelpAction.table.helpItems, GlobalAction.table.helpItems]),
        (.connecting, [ConnectingAction.table.helpItems, DialogAction.table.helpItems, PromptAction.table.helpItems,
                       GlobalAction.table.helpItems]),
        (.session, [SessionAction.table.helpItems, SearchAction.table.helpItems, HistorySearchAction.table.helpItems,
                    OutputToolAction.table.helpItems, DialogAction.table.helpItems, HelpAction.table.helpItems,
                    GlobalAction.table.helpItems]),
        (.fleet, [FleetAction.table.helpItems, OutputToolAction.table.helpItems, DialogAction.table.helpItems,
                  HelpAction.table.helpItems, GlobalAction.table.helpItems]),
        (.summary, [SummaryAction.table.helpItems, GlobalAction.table.helpItems]),
        (.files, [FilesAction.table.helpItems, FilesFilterAction.table.helpItems, FilesQuestionAction.table.helpItems,
                  DialogAction.table.helpItems, FilesConflictAction.table.helpItems, FilesPagerAction.table.helpItems,
                  HelpAction.table.helpItems,
                  GlobalAction.table.helpItems]),
    ]

    /// Every table's keys, as `[Key]` per binding, for checks across all tables.
    static let allKeys: [(table: String, keys: [[Key]])] = [
        ("Servers", ServersAction.table.bindings.map(\.keys)), ("Filter", FilterAction.table.bindings.map(\.keys)),
        ("FleetQuestion", FleetQuestionAction.table.bindings.map(\.keys)),
        ("HistorySearch", HistorySearchAction.table.bindings.map(\.keys)),
        ("Dialog", DialogAction.table.bindings.map(\.keys)), ("Prompt", PromptAction.table.bindings.map(\.keys)),
        ("Help", HelpAction.table.bindings.map(\.keys)), ("Form", FormAction.table.bindings.map(\.keys)),
        ("Connecting", ConnectingAction.table.bindings.map(\.keys)),
        ("Session", SessionAction.table.bindings.map(\.keys)), ("Search", SearchAction.table.bindings.map(\.keys)),
        ("OutputTool", OutputToolAction.table.bindings.map(\.keys)), ("Fleet", FleetAction.table.bindings.map(\.keys)),
        ("Summary", SummaryAction.table.bindings.map(\.keys)),
        ("SummaryUnsaved", SummaryAction.unsavedTable.bindings.map(\.keys)),
        ("SummaryBack", SummaryAction.backToSessionTable.bindings.map(\.keys)),
        ("Global", GlobalAction.table.bindings.map(\.keys)),
        ("Files", FilesAction.table.bindings.map(\.keys)), ("FilesFilter", FilesFilterAction.table.bindings.map(\.keys)),
        ("FilesQuestion", FilesQuestionAction.table.bindings.map(\.keys)),
        ("FilesPager", FilesPagerAction.table.bindings.map(\.keys)),
        ("FilesConflict", FilesConflictAction.table.bindings.map(\.keys)),
    ]

    @Test func everyFKeyActionHasAKeyThatIsNoFKey() {
        for (table, bindings) in Self.allKeys {
            for keys in bindings where keys.contains(where: { if case .function = $0 { true } else { false } }) {
                #expect(keys.contains { if case .function = $0 { false } else { true } },
                        "\(table): \(keys) can only be reached with an F-key")
            }
        }
        // In a session each F-key without a Ctrl twin has the Alt-digit of its number.
        let withCtrl = { (keys: [Key]) in keys.contains { if case .ctrl = $0 { true } else { false } } }
        for binding in SessionAction.table.bindings where !withCtrl(binding.keys) {
            for case .function(let n) in binding.keys {
                #expect(binding.keys.contains(.alt(Character(String(n % 10)))), "F\(n) has Alt-\(n % 10)")
            }
        }
    }

    @Test func noKeyOfTheScreensTablesIsTakenByAKeyThatWorksEverywhere() {
        let everywhere = Set(GlobalAction.table.bindings.flatMap(\.keys))
        for (table, bindings) in Self.allKeys where table != "Global" {
            #expect(Set(bindings.flatMap { $0 }).isDisjoint(with: everywhere), "\(table) binds a global key")
        }
    }

    @Test func everyBindingOfEveryScreenAndOverlayIsInThatScreensHelp() {
        for (screen, tables) in Self.tablesByScreen {
            let help = HelpOverlay.sections(screen).flatMap(\.items)
            for item in tables.flatMap({ $0 }) {
                #expect(help.contains { $0.keys == item.keys && $0.description == item.description },
                        "\(screen): \(item.keys) \(item.description) is missing from the help")
            }
        }
        for summary in [SummaryAction.table, SummaryAction.unsavedTable, SummaryAction.backToSessionTable] {
            let state = SummaryState(title: "t", seconds: 1, commands: 0, reason: nil,
                                     unsaved: summary.bindings.count == 3 ? ServerDraft(name: "h", host: "h", port: 22, user: nil) : nil,
                                     session: summary.bindings.first?.label == "Session" ? Fixtures.inSession().session : nil)
            let help = HelpOverlay.sections(.summary, summary: state).flatMap(\.items)
            for item in summary.helpItems {
                #expect(help.contains { $0.keys == item.keys && $0.description == item.description })
            }
        }
    }

    @Test func noTableHasConflictingKeys() {
        #expect(ServersAction.table.conflictingKeys.isEmpty)
        #expect(FilterAction.table.conflictingKeys.isEmpty)
        #expect(FleetQuestionAction.table.conflictingKeys.isEmpty)
        #expect(DialogAction.table.conflictingKeys.isEmpty)
        #expect(PromptAction.table.conflictingKeys.isEmpty)
        #expect(HelpAction.table.conflictingKeys.isEmpty)
        #expect(FormAction.table.conflictingKeys.isEmpty)
        #expect(ConnectingAction.table.conflictingKeys.isEmpty)
        #expect(SessionAction.table.conflictingKeys.isEmpty)
        #expect(SearchAction.table.conflictingKeys.isEmpty)
        #expect(OutputToolAction.table.conflictingKeys.isEmpty)
        #expect(FleetAction.table.conflictingKeys.isEmpty)
        #expect(SummaryAction.unsavedTable.conflictingKeys.isEmpty)
        #expect(SummaryAction.backToSessionTable.conflictingKeys.isEmpty)
        #expect(HistorySearchAction.table.conflictingKeys.isEmpty)
        #expect(GlobalAction.table.conflictingKeys.isEmpty)
        #expect(FilesAction.table.conflictingKeys.isEmpty)
        #expect(FilesFilterAction.table.conflictingKeys.isEmpty)
        #expect(FilesQuestionAction.table.conflictingKeys.isEmpty)
        #expect(FilesPagerAction.table.conflictingKeys.isEmpty)
        #expect(FilesConflictAction.table.conflictingKeys.isEmpty)
    }

    @Test func theQuickCommandKeysRunTheKindTheirActionNames() {
        for binding in SessionAction.table.bindings {
            guard let kind = binding.action.dataKind else { continue }
            var state = Fixtures.inSession()
            #expect(Fixtures.keys(&state, binding.keys[0]) == [.runQuick(id: 1, kind: kind, os: .linux)])
        }
        #expect(SessionAction.interfaces.dataKind == .interfaces && SessionAction.routes.dataKind == .routes
                && SessionAction.sockets.dataKind == .sockets && SessionAction.run.dataKind == nil)
    }

    @Test func theHelpShowsTheHelpOfTheScreenItIsOpenOn() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("?"))
        let lines = HelpOverlay.lines(state).map(\.description)
        #expect(lines.contains("While typing the filter (/):"))
        #expect(lines.contains("Clear the filter"))
        #expect(!lines.contains("Run the command line"))
    }
}
