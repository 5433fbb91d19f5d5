import Foundation
import Inventory
import Testing
import TUIKit
@testable import AppCore

/// What the Servers screen draws from is derived when the servers or the filter change.
@Suite("Server list")
struct ServerListTests {
    @Test func theListFollowsTheServersAndTheFilter() {
        var state = Fixtures.loaded()
        #expect(state.serverList.visible.map(\.name) == ["web1", "db-main", "café-ünï", "win-build"])
        #expect(state.serverList.widestVisibleName == 9)
        state.filter.setText("prod")
        #expect(state.serverList.visible.map(\.name) == ["web1", "db-main"])
        #expect(state.serverList.widestVisibleName == 7)
        #expect(state.serverList.visibleRow(1).address == "postgres@db.example.com:2222")
        state.servers[0].name = "web-frontend-01"
        #expect(state.serverList.widestVisibleName == 15)
        state.filter.setText("")
        #expect(state.serverList.visibleRow(3).address == "me@192.168.1.20")
    }

    /// The filter reads the selectors every command reads: several tags are their union, ! leaves out, globs and
    /// ranges pick names; the other words are text to look for.
    @Test func theFilterTakesTheSelectorsEveryCommandTakes() {
        var state = Fixtures.loaded()
        let cases: [(String, [String])] = [
            ("tag:lab tag:web", ["web1", "café-ünï"]),
            ("tag:prod !db-main", ["web1"]),
            ("!tag:prod", ["café-ünï", "win-build"]),
            ("web?", ["web1"]),
            ("web[1-2]", ["web1"]),
            ("*-* prod", ["db-main"]),
            ("tag:lab,tag:prod !web*", ["db-main", "café-ünï"]),
            ("web[5-1]", []),
        ]
        for (text, names) in cases {
            state.filter.setText(text)
            #expect(state.serverList.visible.map(\.name) == names, "\(text)")
        }
    }

    /// Servers added or removed elsewhere (`essh servers add` while the interface runs) come as a new load: the
    /// selected server stays selected, and a marked server that is gone is unmarked, saying so.
    @Test func aLoadFromAChangeElsewhereKeepsTheSelectionAndUnmarksWhatIsGone() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .down)
        state.fleet.marked = ["win-build", "web1"]
        #expect(state.selectedServer?.name == "db-main")
        let servers = [Fixtures.server(5, "app0", host: "10.0.0.9")]
            + Fixtures.servers.filter { $0.name != "win-build" }
        _ = Update.update(&state, .loaded(servers: servers, checks: [:], settings: [:]))
        #expect(state.serverList.visible.map(\.name) == ["app0", "web1", "db-main", "café-ünï"])
        #expect(state.selectedServer?.name == "db-main")
        #expect(state.fleet.marked == ["web1"])
        #expect(state.notice == "No longer saved, so unmarked: win-build.")
    }

    @Test func theDayIsTheUTCDateAFormatterGives() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        var date = Date(timeIntervalSince1970: -2_208_988_800)  // 1900-01-01
        while date.timeIntervalSince1970 < 4_102_444_800 {  // 2100-01-01
            #expect(ServerList.day(date) == formatter.string(from: date), "\(date)")
            date.addTimeInterval(86_400 * 3 + 3_607)
        }
        #expect(ServerList.day(Date(timeIntervalSince1970: 1_800_000_000)) == "2027-01-15")
    }
}
