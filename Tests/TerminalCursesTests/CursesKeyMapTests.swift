import Testing
import TUIKit
@testable import TerminalCurses

@Suite struct CursesKeyMapTests {
    @Test func escFollowedAtOnceByADigitIsAltWithIt() {
        #expect(CursesKeyMap.alt(next: CursesKeyMap.key(character: 0x32)) == .alt("2"))
        #expect(CursesKeyMap.alt(next: CursesKeyMap.key(character: 0x30)) == .alt("0"))
        // Esc then a letter (Esc closes, q quits), Enter, Esc, a control key or nothing: Esc stays Esc, the other
        // key is its own.
        for next in [0x71, 0x78, 0x0D, 0x1B, 0x03] as [UInt32] {
            #expect(CursesKeyMap.alt(next: CursesKeyMap.key(character: next)) == nil)
        }
        #expect(CursesKeyMap.alt(next: nil) == nil)
        #expect(CursesKeyMap.key(character: 0x1A) == .ctrl("z"))
        #expect(CursesKeyMap.key(character: 0x03) == .ctrl("c"))
    }
}
