/// A key the user pressed, as every screen sees it whatever the terminal sent.
public enum Key: Sendable, Hashable, CustomStringConvertible {
    /// A printable character (never a control character).
    case character(Character)
    /// Ctrl with a letter, lowercased: `.ctrl("d")` is Ctrl-D.
    case ctrl(Character)
    /// Alt (Meta) with a printable character, as terminals send it: Esc, then the character. `.alt("2")` is Alt-2
    /// (or Esc then 2 typed at once), the stand-in for F2 where the terminal keeps the F-keys for itself. The
    /// curses terminal reads Alt with digits only: Esc then a letter stays two keys.
    case alt(Character)
    /// Function key F1–F12 (`.function(2)` is F2).
    case function(Int)
    /// Enter / Return.
    case enter
    /// Escape.
    case escape
    /// Tab.
    case tab
    /// Shift-Tab.
    case backTab
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Home.
    case home
    /// End.
    case end
    /// Insert.
    case insert
    /// Delete (forward).
    case delete
    /// Backspace.
    case backspace

    /// The short name shown in the key bar and the help screen: `q`, `^D`, `F2`, `Enter`, `PgDn`.
    public var description: String {
        switch self {
        case .character(" "): return "Space"
        case .character(let c): return String(c)
        case .ctrl(let c): return "^" + String(c).uppercased()
        case .alt(let c): return "Alt-" + String(c)
        case .function(let n): return "F\(n)"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .tab: return "Tab"
        case .backTab: return "S-Tab"
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .home: return "Home"
        case .end: return "End"
        case .insert: return "Ins"
        case .delete: return "Del"
        case .backspace: return "Bksp"
        }
    }
}
