/// A one-line text input: its text, the cursor, and the editing keys of a shell prompt.
/// A value: the app keeps it in its state and passes keys to `handle(_:)`.
public struct TextField: Sendable, Hashable {
    /// The characters typed.
    public private(set) var characters: [Character]
    /// Cursor position, as an index into `characters` (0 ... count).
    public private(set) var cursor: Int
    /// Shows every character as `maskCharacter` (passwords).
    public var isMasked: Bool
    /// Shown in place of each character when masked.
    public var maskCharacter: Character
    /// The longest text accepted, in characters.
    public var maxLength: Int

    /// A field holding `text`, cursor at the end.
    public init(_ text: String = "", masked: Bool = false, maskCharacter: Character = "*", maxLength: Int = 4096) {
        characters = Array(text.prefix(maxLength))
        cursor = characters.count
        isMasked = masked
        self.maskCharacter = maskCharacter
        self.maxLength = maxLength
    }

    /// The text.
    public var text: String { String(characters) }

    /// Replaces the text, cursor at the end.
    public mutating func setText(_ text: String) {
        characters = Array(text.prefix(maxLength))
        cursor = characters.count
    }

    /// Applies an editing key; returns false for keys a text field does not use (the screen handles those).
    /// Printable characters insert; Backspace, Delete, ←/→, Home/End, ^A/^E, ^U (delete to start),
    /// ^K (delete to end) and ^W (delete the word before the cursor) edit.
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let c): insert(c)
        case .backspace, .ctrl("h"): backspace()
        case .delete: deleteForward()
        case .left, .ctrl("b"): cursor = max(0, cursor - 1)
        case .right, .ctrl("f"): cursor = min(characters.count, cursor + 1)
        case .home, .ctrl("a"): cursor = 0
        case .end, .ctrl("e"): cursor = characters.count
        case .ctrl("u"): deleteToStart()
        case .ctrl("k"): characters.removeSubrange(cursor...)
        case .ctrl("w"): deleteWordBackward()
        default: return false
        }
        return true
    }

    /// Inserts `character` at the cursor (control characters and text past `maxLength` are refused).
    public mutating func insert(_ character: Character) {
        guard characters.count < maxLength,
              !character.unicodeScalars.contains(where: { Buffer.isControl($0) })
        else { return }
        characters.insert(character, at: cursor)
        cursor += 1
    }

    /// Deletes the character before the cursor.
    public mutating func backspace() {
        guard cursor > 0 else { return }
        characters.remove(at: cursor - 1)
        cursor -= 1
    }

    /// Deletes the character under the cursor.
    public mutating func deleteForward() {
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
    }

    /// Deletes from the start of the text to the cursor.
    public mutating func deleteToStart() {
        characters.removeSubrange(..<cursor)
        cursor = 0
    }

    /// Deletes the word before the cursor and the spaces after it, as a shell's ^W does.
    public mutating func deleteWordBackward() {
        var start = cursor
        while start > 0 && characters[start - 1] == " " { start -= 1 }
        while start > 0 && characters[start - 1] != " " { start -= 1 }
        characters.removeSubrange(start..<cursor)
        cursor = start
    }

    /// What the field shows: the text, or mask characters.
    public var displayText: String {
        isMasked ? String(repeating: maskCharacter, count: characters.count) : text
    }

    /// The cursor's column from the start of the text, in display width.
    public var cursorColumn: Int {
        isMasked ? cursor * DisplayWidth.of(maskCharacter) : DisplayWidth.of(String(characters[..<cursor]))
    }

    /// Draws the field on the first row of `area`, scrolled sideways so the cursor is visible;
    /// returns where the terminal cursor should go.
    @discardableResult
    public func render(in area: Rect, buffer: inout Buffer, style: Style = .plain) -> Point? {
        guard !area.isEmpty else { return nil }
        let row = area.row(0)
        buffer.fill(row, with: .blank(style))
        let shown = isMasked ? Array(repeating: maskCharacter, count: characters.count) : characters
        // Drop characters from the left until the cursor fits on the row.
        var first = 0
        var widthBeforeCursor = cursorColumn
        while widthBeforeCursor >= row.width && first < cursor {
            widthBeforeCursor -= DisplayWidth.of(shown[first])
            first += 1
        }
        buffer.setString(String(shown[first...]), x: row.x, y: row.y, style: style, clip: row)
        return Point(x: row.x + widthBeforeCursor, y: row.y)
    }
}
