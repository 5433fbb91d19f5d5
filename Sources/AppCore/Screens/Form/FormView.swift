import TUIKit

/// A form in a box: label, field, and under each field its hint or what is wrong with it.
enum FormView {
    static func render(_ form: FormState, unicode: Bool, into buffer: inout Buffer) -> Point? {
        // A long refusal (a member editing a team server's shared field: which fields, and what stays theirs to
        // change) is wrapped over up to four lines rather than cut at the screen's edge.
        let errorRows = form.error.map {
            min(4, KeyInstallView.wrap($0, width: max(1, buffer.size.width - 2)).count)
        } ?? 1
        let areas = Layout.split(buffer.area, .vertical, [.fill(1), .fixed(errorRows), .fixed(1)])
        let border = Border.preferred(unicode: unicode)
        let wanted = form.fields.count * 2 + 2
        let box = areas[0].centered(width: min(areas[0].width, 76), height: min(areas[0].height, wanted))
        let inner = Box(title: form.title, border: border).render(in: box, buffer: &buffer)
        let labelWidth = min(max(form.fields.map { DisplayWidth.of($0.label) }.max() ?? 0, 4) + 2,
                             max(1, inner.width / 3))
        // When the box is too short for every field, scroll so the focused one shows.
        let visible = max(1, inner.height / 2)
        let first = max(0, min(form.focus - visible + 1, form.fields.count - visible))
        var cursor: Point?
        for (row, index) in (first..<form.fields.count).enumerated() where row < visible {
            let field = form.fields[index]
            let y = inner.y + row * 2
            let focused = index == form.focus
            buffer.setString(DisplayWidth.fit(field.label, to: labelWidth), x: inner.x + 1, y: y,
                             style: focused ? Theme.label : .plain, clip: inner)
            let rect = Rect(x: inner.x + 1 + labelWidth, y: y, width: max(0, inner.width - labelWidth - 2), height: 1)
            let at = field.input.render(in: rect, buffer: &buffer, style: focused ? Theme.focusedField : Theme.field)
            if focused { cursor = at }
            let note = field.error ?? (focused ? field.hint : "")
            if !note.isEmpty && y + 1 < inner.maxY {
                buffer.setString(note, x: rect.x, y: y + 1, style: field.error != nil ? Theme.error : Theme.hint,
                                 clip: Rect(x: rect.x, y: y + 1, width: rect.width, height: 1))
            }
        }
        if let error = form.error {
            let rows = KeyInstallView.wrap(error, width: max(1, areas[1].width - 2))
            for (row, text) in rows.prefix(areas[1].height).enumerated() {
                buffer.setString(text, x: 1, y: areas[1].y + row, style: Theme.error, clip: areas[1])
            }
        }
        KeyBar(table: FormAction.table(for: form.purpose)).render(in: areas[2], buffer: &buffer)
        return cursor
    }
}
