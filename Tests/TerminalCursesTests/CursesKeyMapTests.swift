import Testing
import TUIKit
@testable import TerminalCurses

@Suite struct CursesKeyMapTests {
    @Test func escFollowedAtOnceByACharacterIsAltWithIt() {
        #expect(CursesKeyMap.alt(next: CursesKeyMap.key(character: 0x32)) == .alt("2"))
        #expect(CursesKeyMap.alt(next: CursesKeyMap.key(character: 0x78)) == .alt("x"))
        // Esc then Enter, Esc, a control key or nothing: Esc stays Esc, the other key is its own.
        for next in [0x0D, 0x1B, 0x03] as [UInt32] {
            #expect(CursesKeyMap.alt(next: CursesKeyMap.key(character: next)) == nil)
        }
        #expect(CursesKeyMap.alt(next: nil) == nil)
        #expect(CursesKeyMap.key(character: 0x1A) == .ctrl("z"))
        #expect(CursesKeyMap.key(character: 0x03) == .ctrl("c"))
    }
}
