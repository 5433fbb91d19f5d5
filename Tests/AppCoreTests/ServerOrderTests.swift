import Foundation
import Inventory
import Operations
import Testing
import TUIKit
@testable import AppCore

/// The Servers list: sorted by name, status or last connected (`o`, kept as a setting, marked on its column), grouped
/// under tags (`T`, groups fold), filtered fuzzily and ranked by best match; the mouse setting (`m`).
@Suite("Servers list: order, groups, fuzzy filter, mouse")
struct ServerOrderTests {
    private func names(_ state: AppState) -> [String] { state.visibleServers.map(\.name) }

    @Test func oCyclesTheOrderSavesItAndMarksTheSortedColumn() {
        var state = Fixtures.loaded()
        #expect(names(state) == ["web1", "db-main", "café-ünï", "win-build"])
        #expect(Fixtures.screen(state)[1].contains("Name↓"))
        let effects = Fixtures.keys(&state, .character("o"))
        #expect(effects == [.saveSettings(["ui.sort": "status"])])
        // Online and fastest first, then the other statuses, never checked last.
        #expect(names(state) == ["web1", "café-ünï", "db-main", "win-build"])
        #expect(Fixtures.screen(state)[1].contains("Status↓") && !Fixtures.screen(state)[1].contains("Name↓"))
        #expect(state.notice == "Sorted by status (o: the next order).")
        // The settingsSaved that follows keeps the line that says what happened.
        _ = Update.update(&state, .settingsSaved)
        #expect(state.notice == "Sorted by status (o: the next order).")
        Fixtures.keys(&state, .character("o"))
        #expect(names(state) == ["web1", "café-ünï", "db-main", "win-build"])
        #expect(Fixtures.screen(state)[1].contains("Connected↓"))
        Fixtures.keys(&state, .character("o"))
        #expect(state.settings.serverOrder == .name && names(state) == ["web1", "db-main", "café-ünï", "win-build"])
    }

    @Test func theStoredOrderIsUsedFromTheStartAndAStatusOrderFollowsAFinishedCheck() {
        var state = AppState(size: Size(width: 80, height: 24), now: Fixtures.now, localUser: "me")
        _ = Update.update(&state, .loaded(servers: Fixtures.servers, checks: Fixtures.checks,
                                          settings: ["ui.sort": "status"]))
        #expect(names(state) == ["web1", "café-ünï", "db-main", "win-build"])
        // A check's results come in row by row; the list takes them in when the check ends.
        _ = Update.update(&state, .checkResult(serverId: 4, status: .online, latencyMs: 0.5, at: Fixtures.now))
        #expect(names(state).last == "win-build")
        _ = Update.update(&state, .checkFinished(error: nil, at: Fixtures.now))
        #expect(names(state) == ["win-build", "web1", "café-ünï", "db-main"])
    }

    @Test func groupsByTagFoldAndMarkAsAWhole() {
        var state = Fixtures.loaded()
        #expect(Fixtures.keys(&state, .character("T")) == [.saveSettings(["ui.group": "on"])])
        let screen = Fixtures.screen(state)
        // lab, prod, web in order, then the servers without a tag; web1 is under both of its tags.
        #expect(screen[2].hasPrefix("▾ lab · 1 server, 1 online"), "\(screen)")
        #expect(screen[3].contains("café-ünï"))
        #expect(screen[4].hasPrefix("▾ prod · 2 servers, 1 online"))
        #expect(screen[7].hasPrefix("▾ web · 1 server, 1 online"))
        #expect(screen[9].hasPrefix("▾ (no tag) · 1 server, 0 online"))
        #expect(screen[10].contains("win-build"))
        // Enter on a heading folds it (and connects nobody); → unfolds it.
        Fixtures.keys(&state, .down, .down)
        #expect(state.selectedServer == nil && state.selectedServers.map(\.name) == ["web1", "db-main"])
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.screen.kind == .servers && state.collapsedTags == ["prod"])
        #expect(Fixtures.screen(state)[4].hasPrefix("▸ prod · 2 servers"))
        #expect(Fixtures.screen(state)[5].hasPrefix("▾ web"))
        Fixtures.keys(&state, .right)
        #expect(state.collapsedTags.isEmpty)
        // ← on a server folds its group and leaves the selection on the heading.
        Fixtures.keys(&state, .down, .down, .left)
        #expect(state.collapsedTags == ["prod"] && state.list.selected == 2)
        // Space on a heading marks the group's servers; x then runs on them.
        Fixtures.keys(&state, .character(" "))
        #expect(state.fleet.marked == ["web1", "db-main"])
        // T again: one list.
        Fixtures.keys(&state, .character("T"))
        #expect(state.listLines == 4 && state.selectedServer != nil)
    }

    @Test func theFilterMatchesFuzzilyAndRanksTheBestFirst() {
        var state = Fixtures.loaded()
        state.filter.setText("wbld")
        #expect(names(state) == ["win-build"])
        state.filter.setText("db")
        // db-main by its name (which counts double), café-ünï by its address (admin@[2001:db8::7]); web1 has no "d"
        // then "b" in its name, address or tags.
        #expect(names(state) == ["db-main", "café-ünï"])
        state.filter.setText("w")
        // Both start with w; the shorter name first.
        #expect(names(state) == ["web1", "win-build"])
        state.filter.setText("exampl")
        #expect(names(state) == ["db-main"])
        #expect(Fixtures.screen(state)[0].contains("best match first"))
        // A tag: word still picks exactly; the rest of the text ranks within it.
        state.filter.setText("tag:prod m")
        #expect(names(state) == ["db-main", "web1"])
        state.filter.setText("zzz")
        #expect(names(state).isEmpty)
    }

    @Test func mTurnsTheMouseWheelOnAndOffAndHelpSaysWhy() {
        var state = Fixtures.loaded()
        #expect(!state.mouseReporting)
        #expect(Fixtures.keys(&state, .character("m")) == [.saveSettings(["ui.mouse": "on"])])
        #expect(state.mouseReporting && state.notice?.contains("hold Shift") == true)
        Fixtures.keys(&state, .character("m"))
        #expect(!state.mouseReporting)
        Fixtures.keys(&state, .character("?"))
        let help = HelpOverlay.lines(state).map(\.description).joined(separator: " ")
        #expect(help.contains("Mouse wheel on or off"))
    }
}
