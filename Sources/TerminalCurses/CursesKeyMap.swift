import CNCursesW
import TUIKit

/// Turns what `wget_wch` returns into TUIKit events. Pure apart from reading curses' key constants.
enum CursesKeyMap {
    /// A character `wget_wch` returned with `OK`.
    static func key(character value: UInt32) -> Key? {
        switch value {
        case 0x0D, 0x0A: return .enter
        case 0x09: return .tab
        case 0x1B: return .escape
        case 0x7F, 0x08: return .backspace
        case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(value + 0x60)!))
        case 0x00, 0x1C...0x1F, 0x80...0x9F: return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }

    /// The key Esc followed at once by `next` makes: Alt with a digit (terminals send Alt-2 as Esc 2, the F-keys'
    /// stand-ins); nil for anything else, which stays Esc and a key of its own: Esc then a letter typed quickly (Esc
    /// closes, `q` quits) arrives as fast as Alt with it, and must keep meaning both.
    static func alt(next: Key?) -> Key? {
        guard case .character(let c)? = next, c.isASCII, c.isNumber else { return nil }
        return .alt(c)
    }

    /// A key code `wget_wch` returned with `KEY_CODE_YES` (not KEY_RESIZE or KEY_MOUSE, handled by the caller).
    static func key(code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME, KEY_A1: return .home
        case KEY_END, KEY_C1: return .end
        case KEY_IC: return .insert
        case KEY_DC: return .delete
        case KEY_BACKSPACE: return .backspace
        case KEY_ENTER: return .enter
        case KEY_BTAB: return .backTab
        default:
            for n in 1...12 where code == essh_key_f(Int32(n)) { return .function(n) }
            return nil
        }
    }
}
