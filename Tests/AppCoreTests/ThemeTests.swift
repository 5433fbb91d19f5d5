import Basics
import Foundation
import TUIKit
import Testing
@testable import AppCore

/// The Servers screen's status column: one colour and text per check status, every status covered, in the words
/// `essh check` and fleet runs print.
@Suite struct ThemeTests {
    @Test func everyCheckStatusHasItsColourAndText() {
        let expected: [CheckStatus: (Color, String)] = [
            .online: (.green, "online"), .notSSH: (.yellow, "not-ssh"), .refused: (.red, "refused"),
            .timeout: (.red, "timed-out"), .unreachable: (.red, "unreachable"), .dnsError: (.red, "dns-error"),
        ]
        #expect(Set(expected.keys) == Set(CheckStatus.allCases))
        for (status, (colour, text)) in expected {
            let (style, shown) = Theme.status(ServerCheck(status: status, latencyMs: nil, checkedAt: nil))
            #expect(style.fg == colour && shown == text, "\(status)")
        }
        #expect(Theme.status(ServerCheck(status: .online, latencyMs: 1.44, checkedAt: nil)).1 == "1.4 ms")
        #expect(Theme.status(nil) == (Style(fg: .gray), "not checked"))
    }
}
