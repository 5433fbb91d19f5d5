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
