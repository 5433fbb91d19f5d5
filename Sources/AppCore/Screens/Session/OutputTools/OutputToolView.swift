import TUIKit

/// The mail / save / pipe form, in a box over the session's output.
enum OutputToolView {
    static func render(_ tool: OutputToolState, border: Border, into buffer: inout Buffer) -> Point? {
        let contentRow = tool.tableAvailable ? 1 : 0
        let height = tool.fields.count + contentRow + 4
        let frame = buffer.area.centered(width: min(buffer.size.width - 2, 76), height: min(buffer.size.height, height))
        buffer.fill(frame)
        let inner = Box(title: tool.title, border: border).render(in: frame, buffer: &buffer)
        let labelWidth = (tool.fields.map { DisplayWidth.of($0.label) } + [contentRow > 0 ? 7 : 0]).max()! + 2
        var cursor: Point?
        for (index, field) in tool.fields.enumerated() {
            let y = inner.y + index
            let focused = index == tool.focus
            buffer.setString(field.label, x: inner.x + 1, y: y, style: focused ? Theme.label : .plain, clip: inner)
            let rect = Rect(x: inner.x + 1 + labelWidth, y: y, width: max(0, inner.width - labelWidth - 2), height: 1)
            let at = field.input.render(in: rect, buffer: &buffer, style: focused ? Theme.focusedField : Theme.field)
            if focused { cursor = at }
        }
        var y = inner.y + tool.fields.count
        if contentRow > 0 {
            buffer.setString("Content", x: inner.x + 1, y: y, clip: inner)
            let choice = tool.sendTable ? "the parsed table (F5: raw output)" : "the raw output (F5: parsed table)"
            buffer.setString(choice, x: inner.x + 1 + labelWidth, y: y, clip: inner)
            y += 1
        }
        if let error = tool.error {
            buffer.setString(error, x: inner.x + 1, y: y, style: Theme.error,
                             clip: Rect(x: inner.x + 1, y: y, width: max(0, inner.width - 2), height: 1))
        }
        buffer.setString(tool.hint, x: inner.x + 1, y: inner.maxY - 1, style: Theme.hint, clip: inner)
        return cursor
    }
}
