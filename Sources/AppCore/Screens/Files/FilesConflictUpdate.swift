import Basics

/// F5's question about names that are in the destination folder already: its keys, and the copy it queues once the
/// last name is answered.
extension Update {
    static func filesConflictKey(_ state: inout AppState, _ question: FilesConflictQuestion,
                                 _ action: FilesConflictAction?) -> [Effect] {
        var question = question
        let answer: FilesConflictQuestion.Answer
        switch action {
        case nil: return []
        case .previous?, .next?:
            let step = action == .previous ? -1 : 1
            question.selected = min(max(0, question.selected + step), FilesConflictAction.buttons.count - 1)
            state.overlays.filesConflict = question
            return []
        case .cancel?:
            state.overlays.filesConflict = nil
            state.notice = "Copy cancelled: nothing was copied."
            return []
        case .choose?: answer = FilesConflictAction.buttons[question.selected].answer
        case .answer(let chosen)?: answer = chosen
        }
        question.answer(answer)
        guard question.asked == nil else {
            state.overlays.filesConflict = question
            return []
        }
        state.overlays.filesConflict = nil
        guard case .files(var screen) = state.screen, screen.session == question.session else { return [] }
        let effects = queueCopy(&state, &screen, question)
        state.show(.files(screen))
        return effects
    }

    /// Queues what the question decided (all of it when nothing was asked), the source pane's marks cleared; the
    /// status line says what was left out.
    static func queueCopy(_ state: inout AppState, _ screen: inout FilesState,
                          _ question: FilesConflictQuestion) -> [Effect] {
        let into = place(screen, question.from.other, path: question.destination)
        let arrow = question.from == .local ? "↑" : "↓"
        for request in question.requests {
            let first = FileRow.display(FilePath.lastPart(request.sources[0]))
            let what = request.newName.map { "\(first) as \(FileRow.display($0))" }
                ?? (request.sources.count == 1 ? first : "\(request.sources.count) entries")
            _ = screen.queue.add(request, label: "\(arrow) \(what) → \(into)")
        }
        screen[question.from].clearMarks()
        state.notice = leftOutSentence(question, into: into)
        return startNextTransfer(&screen)
    }

    /// What a copy left out, for the status line (nil: nothing).
    static func leftOutSentence(_ question: FilesConflictQuestion, into: String) -> String? {
        var parts: [String] = []
        let skipped = question.skipped.count
        if skipped > 0 {
            parts.append("Skipped \(CountText.text(skipped, "file")) that \(skipped == 1 ? "is" : "are") in \(into) "
                + "already.")
        }
        if let only = question.refused.first, question.refused.count == 1 {
            parts.append("“\(only.displayName)” is \(what(only)) in \(into): it is not overwritten, and not copied.")
        } else if !question.refused.isEmpty {
            parts.append("\(question.refused.count) names are taken in \(into) by what is no regular file "
                + "(\(quoted(question.refused.map(\.name)))): they are not overwritten, and not copied.")
        }
        guard !parts.isEmpty else { return nil }
        return (question.requests.isEmpty ? "Nothing was copied. " : "") + parts.joined(separator: " ")
    }

    /// What an entry that is no file is, in a sentence.
    private static func what(_ row: FileRow) -> String {
        switch row.kind {
        case .directory: return "a folder"
        case .symlink: return row.linksToDirectory ? "a link to a folder" : "a link"
        case .file, .other: return "no regular file"
        }
    }
}
