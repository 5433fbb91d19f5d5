import CNCursesW
import TUIKit

/// Maps TUIKit styles to curses attributes and colour pairs, allocating pairs as styles appear.
/// Without colours (a monochrome terminal, or NO_COLOR set) colours are dropped and a background colour becomes
/// reverse video, so highlights keep standing out.
struct CursesPalette {
    let colors: Bool
    private let defaultColors: Bool
    private let bright: Bool
    private let maxPairs: Int
    private var pairs: [UInt16: Int16] = [:]

    /// Starts colour when the terminal has it and `wanted`; call after curses started.
    init(wanted: Bool) {
        if wanted && has_colors() {
            start_color()
            defaultColors = use_default_colors() == OK
            colors = true
            bright = essh_colors() >= 16
            maxPairs = Int(min(essh_color_pairs(), 256))
        } else {
            colors = false
            defaultColors = false
            bright = false
            maxPairs = 0
        }
    }

    mutating func attributes(for style: Style) -> (attrs: attr_t, pair: Int16) {
        var attrs = essh_a_normal()
        if style.attributes.contains(.bold) { attrs |= essh_a_bold() }
        if style.attributes.contains(.dim) { attrs |= essh_a_dim() }
        if style.attributes.contains(.reverse) { attrs |= essh_a_reverse() }
        if style.attributes.contains(.underline) { attrs |= essh_a_underline() }
        guard colors else {
            if style.bg != .default && !style.attributes.contains(.reverse) { attrs |= essh_a_reverse() }
            return (attrs, 0)
        }
        if style.fg == .gray && !bright { attrs |= essh_a_bold() }
        if style.fg == .default && style.bg == .default { return (attrs, 0) }
        let key = UInt16(style.fg.rawValue) << 8 | UInt16(style.bg.rawValue)
        if let pair = pairs[key] { return (attrs, pair) }
        let next = pairs.count + 1
        guard next < maxPairs else { return (attrs, 0) }
        init_pair(Int16(next), number(style.fg, foreground: true), number(style.bg, foreground: false))
        pairs[key] = Int16(next)
        return (attrs, Int16(next))
    }

    private func number(_ color: Color, foreground: Bool) -> Int16 {
        switch color {
        case .default: return defaultColors ? -1 : (foreground ? Int16(COLOR_WHITE) : Int16(COLOR_BLACK))
        case .black: return Int16(COLOR_BLACK)
        case .red: return Int16(COLOR_RED)
        case .green: return Int16(COLOR_GREEN)
        case .yellow: return Int16(COLOR_YELLOW)
        case .blue: return Int16(COLOR_BLUE)
        case .magenta: return Int16(COLOR_MAGENTA)
        case .cyan: return Int16(COLOR_CYAN)
        case .white: return Int16(COLOR_WHITE)
        case .gray: return bright ? 8 : Int16(COLOR_BLACK)
        }
    }
}
