import Basics
import Foundation
import Inventory
import Operations
import TUIKit
import Transfer

/// The Files screen: opening it, its keys (the panes, the filter, the questions, the pager), and what the files
/// worker says.
extension Update {
    /// How much of a file the pager reads (F3).
    static let filesPagerLimit = 1 << 20

    /// `f` on the Servers screen: the selected server's files beside this machine's. With two or more servers marked,
    /// `m` copies the local selection to all of them.
    static func openFiles(_ state: inout AppState) -> [Effect] {
        guard let server = state.selectedServer else { return [] }
        var files = FilesState(session: nextFilesSession(&state), serverName: server.name)
        let marked = state.servers.filter { state.fleet.marked.contains($0.name) }
        if marked.count >= 2 { files.markedServers = marked.map(ConnectionProfile.init(server:)) }
        return showFiles(&state, files, profile: ConnectionProfile(server: server), start: .home)
    }

    /// F11 in a session: its server's files, the server's pane in the session's folder after its last `cd`. The
    /// session waits under the screen (its connection stays) and comes back when the screen closes.
    static func openFilesFromSession(_ state: inout AppState) -> [Effect] {
        guard case .session(let session) = state.screen else { return [] }
        if session.running != nil {
            state.notice = "A command is running: Esc stops it, then F11 opens the files."
            return []
        }
        guard session.link == .up else {
            state.notice = "Not connected: r on an empty line reconnects first."
            return []
        }
        let files = FilesState(session: nextFilesSession(&state), serverName: session.target.name ?? session.title,
                               returnTo: session)
        return showFiles(&state, files, profile: session.target, start: .sessionFolder)
    }

    private static func nextFilesSession(_ state: inout AppState) -> Int {
        state.filesOpened += 1
        return state.filesOpened
    }

    private static func showFiles(_ state: inout AppState, _ files: FilesState, profile: ConnectionProfile,
                                  start: FilesWork.RemoteStart) -> [Effect] {
        state.show(.files(files))
        state.notice = "Connecting to \(files.serverName)…"
        return [.files(.open(session: files.session, server: profile, knownHosts: state.settings.knownHosts,
                             remoteStart: start, localStart: nil))]
    }

    // MARK: keys

    static func filesKey(_ state: inout AppState, _ key: Key) -> [Effect] {
        guard case .files(var screen) = state.screen else { return [] }
        var effects: [Effect] = []
        var closing = false
        defer { if !closing, case .files = state.screen { state.show(.files(screen)) } }
        if screen.pager != nil {
            pagerKey(&screen, FilesPagerAction.table.action(for: key), height: pagerRows(state.size))
        } else if let confirm = screen.confirm {
            effects = confirmKey(&screen, confirm, DialogAction.table.action(for: key), key)
        } else if let question = screen.question {
            effects = questionKey(&state, &screen, question, FilesQuestionAction.table.action(for: key), key)
        } else if screen.pane.filtering {
            filterKey(&screen, FilesFilterAction.table.action(for: key), key)
        } else if let action = FilesAction.table.action(for: key) {
            effects = filesAction(&state, &screen, action, closing: &closing)
        }
        return effects
    }

    /// Rows of a pane's table on a screen of `size` (the page for PgUp / PgDn).
    static func filesPageRows(_ size: Size) -> Int { max(1, size.height - 9) }

    static func pagerRows(_ size: Size) -> Int { max(1, size.height - 3) }

    private static func filesAction(_ state: inout AppState, _ screen: inout FilesState, _ action: FilesAction,
                                    closing: inout Bool) -> [Effect] {
        state.notice = nil
        let count = screen.pane.rows.count
        let side = screen.active
        switch action {
        case .up: screen.pane.list.selectPrevious(count: count)
        case .down: screen.pane.list.selectNext(count: count)
        case .pageUp: screen.pane.list.pageUp(count: count, pageSize: filesPageRows(state.size))
        case .pageDown: screen.pane.list.pageDown(count: count, pageSize: filesPageRows(state.size))
        case .first: screen.pane.list.selectFirst(count: count)
        case .last: screen.pane.list.selectLast(count: count)
        case .switchPane: screen.active = side.other
        case .help: state.showHelp = true
        case .mark:
            screen.pane.toggleMark()
            screen.pane.list.selectNext(count: count)
        case .invertMarks: screen.pane.invertMarks()
        case .filter: screen.pane.filtering = true
        case .sort:
            screen.pane.sort = screen.pane.sort.next
            state.notice = "Sorted by \(screen.pane.sort.words) (s: the next order)."
        case .reload:
            return FilesSide.allCases.compactMap { relist(screen, $0) }
        case .open:
            guard let row = screen.pane.selected, ready(&state, screen, side) else { return [] }
            guard row.opens else {
                state.notice = "\(row.displayName) is no folder: F3 views it, F5 copies it."
                return []
            }
            screen.pane.loading = true
            return [.files(.list(session: screen.session, side, path: FilePath.join(screen.pane.path, row.name),
                                 select: nil))]
        case .parent:
            guard ready(&state, screen, side), let up = FilePath.parent(screen.pane.path),
                  up != screen.pane.path else { return [] }
            screen.pane.loading = true
            return [.files(.list(session: screen.session, side, path: up,
                                 select: FilePath.lastPart(screen.pane.path)))]
        case .view:
            guard let row = screen.pane.selected, ready(&state, screen, side) else { return [] }
            guard !row.opens else {
                state.notice = "\(row.displayName) is a folder: Enter opens it."
                return []
            }
            state.notice = "Reading \(row.displayName)…"
            return [.files(.view(session: screen.session, side, path: FilePath.join(screen.pane.path, row.name),
                                 limit: filesPagerLimit))]
        case .copy: return copy(&state, &screen)
        case .rename:
            guard let row = screen.pane.selected, ready(&state, screen, side) else { return [] }
            var question = FilesQuestion(kind: .rename(row), side: side, input: TextField(typable(row.name) ?? ""))
            if typable(row.name) == nil {
                question.problem = "Its name has bytes that cannot be typed: type the whole new name."
            }
            screen.question = question
        case .makeDirectory:
            guard ready(&state, screen, side) else { return [] }
            screen.question = FilesQuestion(kind: .makeDirectory, side: side, input: TextField())
        case .changeMode:
            let chosen = screen.pane.chosen
            guard let first = chosen.first, ready(&state, screen, side) else { return [] }
            let paths = chosen.map { FilePath.join(screen.pane.path, $0.name) }
            screen.question = FilesQuestion(kind: .changeMode(paths), side: side,
                                            input: TextField(String(first.mode & 0o7777, radix: 8)))
        case .delete:
            let chosen = screen.pane.chosen
            guard let first = chosen.first, ready(&state, screen, side) else { return [] }
            let what = chosen.count == 1 ? first.displayName + (first.kind == .directory ? " and everything in it"
                                                                    : "")
                : "\(chosen.count) entries (folders with everything in them)"
            screen.confirm = FilesConfirm(side: side, paths: chosen.map { FilePath.join(screen.pane.path, $0.name) },
                                          message: "Delete \(what) from \(place(screen, side))?")
        case .pause: return pauseOrResume(&state, &screen)
        case .cancel:
            if let running = screen.queue.active {
                guard running.state != .cancelling else { return [] }
                screen.queue.change(running.id) { $0.state = .cancelling }
                state.notice = "Cancelling the copy; its partial file is removed."
                return [.files(.cancel(session: screen.session, id: running.id))]
            }
            if !screen.pane.filter.text.isEmpty {
                screen.pane.filter = TextField()
                return []
            }
            return closeFiles(&state, screen, closing: &closing)
        case .back: return closeFiles(&state, screen, closing: &closing)
        case .clearFinished:
            screen.queue.clearFinished()
            screen.serverCopies = nil
        case .copyToServers: return copyToServers(&state, &screen)
        }
        return []
    }

    /// Whether `side` can be acted on now: the server's pane needs the login to have worked.
    private static func ready(_ state: inout AppState, _ screen: FilesState, _ side: FilesSide) -> Bool {
        guard side == .remote else { return true }
        if let problem = screen.connectionProblem {
            state.notice = problem
            return false
        }
        if screen.host == nil {
            state.notice = "Still connecting to \(screen.serverName)…"
            return false
        }
        return true
    }

    /// `web1:/srv/app` or `/home/me` (this machine), for sentences.
    static func place(_ screen: FilesState, _ side: FilesSide, path: [UInt8]? = nil) -> String {
        let path = FileRow.display(path ?? screen[side].path)
        return side == .local ? path : "\(screen.serverName):\(path)"
    }

    /// The name as a text field can hold it: nil when it is no UTF-8 or holds a control character.
    static func typable(_ name: [UInt8]) -> String? {
        guard let text = String(validating: name, as: UTF8.self),
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        else { return nil }
        return text
    }

    private static func relist(_ screen: FilesState, _ side: FilesSide) -> Effect? {
        guard !screen[side].path.isEmpty else { return nil }
        return .files(.list(session: screen.session, side, path: screen[side].path, select: nil))
    }

    private static func closeFiles(_ state: inout AppState, _ screen: FilesState, closing: inout Bool) -> [Effect] {
        closing = true
        var effects: [Effect] = []
        if let running = screen.queue.active, running.state == .running {
            effects.append(.files(.cancel(session: screen.session, id: running.id)))
        }
        effects.append(.files(.close(session: screen.session)))
        if let session = screen.returnTo {
            state.show(.session(session))
        } else {
            state.show(.servers)
        }
        return effects
    }

    // MARK: copies

    /// F5: the marked (or selected) entries of the pane with the keys into the other pane's folder, queued; when
    /// names among them are there already, asked about first (`FilesConflictQuestion`).
    private static func copy(_ state: inout AppState, _ screen: inout FilesState) -> [Effect] {
        let from = screen.active
        let chosen = screen.pane.chosen
        guard !chosen.isEmpty, ready(&state, screen, .remote) else { return [] }
        let to = screen[from.other].path
        guard !to.isEmpty else { return [] }
        let question = FilesConflictQuestion(session: screen.session, from: from, sourceFolder: screen.pane.path,
                                             chosen: chosen, destination: to, existing: screen[from.other].entries)
        if question.asked != nil {
            state.overlays.filesConflict = question
            return []
        }
        return queueCopy(&state, &screen, question)
    }

    static func startNextTransfer(_ screen: inout FilesState) -> [Effect] {
        guard let next = screen.queue.startNext() else { return [] }
        return [.files(.transfer(session: screen.session, id: next.id, next.request))]
    }

    /// `p`: pauses the running copy (its partial kept), or resumes the last paused one.
    private static func pauseOrResume(_ state: inout AppState, _ screen: inout FilesState) -> [Effect] {
        if let running = screen.queue.active {
            guard running.state == .running else { return [] }
            screen.queue.change(running.id) { $0.state = .pausing }
            state.notice = "Pausing: the partial file stays; p resumes it."
            return [.files(.pause(session: screen.session, id: running.id))]
        }
        guard screen.queue.resumeLast() != nil else {
            state.notice = "No copy is running or paused."
            return []
        }
        state.notice = "Resuming where it stopped."
        return startNextTransfer(&screen)
    }

    /// `m`: the local marked (or selected) files to every marked server, into the server pane's folder (the login
    /// folder when the pane has none yet).
    private static func copyToServers(_ state: inout AppState, _ screen: inout FilesState) -> [Effect] {
        guard screen.markedServers.count >= 2 else {
            state.notice = "Mark two or more servers on the list (Space), then f: m copies to all of them."
            return []
        }
        let chosen = screen.local.chosen
        guard !chosen.isEmpty else {
            state.notice = "Choose the local files to send (Space marks them) in the left pane."
            return []
        }
        let destination = screen.remote.path
        let id = (screen.serverCopies?.id ?? 0) + 1
        let what = chosen.count == 1 ? chosen[0].displayName : "\(chosen.count) entries"
        let into = destination.isEmpty ? "the login folder" : FileRow.display(destination)
        screen.serverCopies = FilesServerCopies(
            id: id, label: "\(what) → \(into) on \(screen.markedServers.count) servers",
            rows: screen.markedServers.map {
                FilesServerCopy(server: $0.name ?? $0.host, status: FilesServerCopies.copying, lines: [])
            })
        screen.local.clearMarks()
        return [.files(.copyToServers(session: screen.session, id: id, servers: screen.markedServers,
                                      sources: chosen.map { FilePath.join(screen.local.path, $0.name) },
                                      destination: destination, knownHosts: state.settings.knownHosts,
                                      parallel: state.settings.fleetParallel))]
    }

    // MARK: the filter, the questions, the confirmation, the pager

    private static func filterKey(_ screen: inout FilesState, _ action: FilesFilterAction?, _ key: Key) {
        let count = screen.pane.rows.count
        switch action {
        case .done?: screen.pane.filtering = false
        case .clear?:
            screen.pane.filter = TextField()
            screen.pane.filtering = false
        case .up?: screen.pane.list.selectPrevious(count: count)
        case .down?: screen.pane.list.selectNext(count: count)
        case nil: _ = screen.pane.filter.handle(key)
        }
    }

    private static func questionKey(_ state: inout AppState, _ screen: inout FilesState, _ question: FilesQuestion,
                                    _ action: FilesQuestionAction?, _ key: Key) -> [Effect] {
        var question = question
        switch action {
        case .cancel?:
            screen.question = nil
            return []
        case .answer?:
            let (operation, problem) = answer(question, in: screen[question.side].path)
            guard let operation else {
                question.problem = problem
                screen.question = question
                return []
            }
            screen.question = nil
            return [.files(.operate(session: screen.session, question.side, operation))]
        case nil:
            _ = question.input.handle(key)
            question.problem = nil
            screen.question = question
            return []
        }
    }

    /// The operation a question's answer asks for, or what is wrong with the answer.
    static func answer(_ question: FilesQuestion, in folder: [UInt8]) -> (FilesOperation?, String?) {
        let text = question.input.text
        switch question.kind {
        case .rename(let row):
            if let problem = nameProblem(text) { return (nil, problem) }
            let name = Array(text.utf8)
            if name == row.name { return (nil, "That is its name now: type another, or Esc.") }
            return (.rename(from: FilePath.join(folder, row.name), to: FilePath.join(folder, name)), nil)
        case .makeDirectory:
            if let problem = nameProblem(text) { return (nil, problem) }
            return (.makeDirectory(FilePath.join(folder, Array(text.utf8))), nil)
        case .changeMode(let paths):
            guard let mode = octalMode(text) else {
                return (nil, "Type the mode in octal: 1 to 4 digits 0–7, as 644, 755 or 2775.")
            }
            return (.changeMode(paths, to: mode), nil)
        }
    }

    /// Why `text` cannot be a name in a folder (nil: it can).
    static func nameProblem(_ text: String) -> String? {
        if text.isEmpty { return "Type a name." }
        if text.contains("/") { return "A name cannot hold /." }
        if text == "." || text == ".." { return "\(text) names a folder that is there already." }
        return nil
    }

    /// `644`, `0755`, `2775` as a mode; nil for anything else (more than 4 digits, 8, 9, signs, spaces).
    static func octalMode(_ text: String) -> UInt32? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        guard (1...4).contains(digits.count), digits.allSatisfy({ ("0"..."7").contains($0) }),
              let mode = UInt32(digits, radix: 8) else { return nil }
        return mode
    }

    private static func confirmKey(_ screen: inout FilesState, _ confirm: FilesConfirm, _ action: DialogAction?,
                                   _ key: Key) -> [Effect] {
        var confirm = confirm
        var choice: Int?
        switch action {
        case .previous?: confirm.selected = 0
        case .next?: confirm.selected = 1
        case .choose?: choice = confirm.selected
        case .cancel?: choice = 1
        case .scrollUp?, .scrollDown?: break
        case nil:
            if case .character(let c) = key,
               let i = FilesConfirm.buttons.firstIndex(where: { $0.lowercased().first == Character(c.lowercased()) }) {
                choice = i
            }
        }
        guard let choice else {
            screen.confirm = confirm
            return []
        }
        screen.confirm = nil
        guard choice == 0 else { return [] }
        return [.files(.operate(session: screen.session, confirm.side, .remove(confirm.paths)))]
    }

    private static func pagerKey(_ screen: inout FilesState, _ action: FilesPagerAction?, height: Int) {
        guard var pager = screen.pager, let action else { return }
        switch action {
        case .close:
            screen.pager = nil
            return
        case .up: pager.view.scroll(by: -1, in: pager.lines, height: height)
        case .down: pager.view.scroll(by: 1, in: pager.lines, height: height)
        case .pageUp: pager.view.scroll(by: -height, in: pager.lines, height: height)
        case .pageDown: pager.view.scroll(by: height, in: pager.lines, height: height)
        case .top: pager.view.scrollToTop(in: pager.lines)
        case .bottom: pager.view.scrollToBottom(in: pager.lines, height: height)
        case .left: pager.view.left = max(0, pager.view.left - 8)
        case .right: pager.view.left += 8
        }
        pager.view.follow = false
        screen.pager = pager
    }

    // MARK: the worker's messages

    static func filesEvent(_ state: inout AppState, _ event: FilesEvent) -> [Effect] {
        guard case .files(var screen) = state.screen, screen.session == event.session else { return [] }
        defer { if case .files = state.screen { state.show(.files(screen)) } }
        switch event {
        case .connected(_, let host):
            screen.host = host
            screen.connectionProblem = nil
            if state.notice?.hasPrefix("Connecting") == true { state.notice = nil }
        case .connectionFailed(_, let text):
            screen.connectionProblem = text
            screen.host = nil
            screen.remote.loading = false
            state.notice = text
        case .listed(_, let side, let path, let entries, let select, let omitted):
            screen[side].listed(path, entries, select: select)
            if !omitted.isEmpty { state.notice = omittedSentence(screen, side, omitted) }
        case .listFailed(_, let side, _, let text):
            screen[side].loading = false
            screen[side].problem = text
            state.notice = text
        case .operated(_, let side, let notice, let select):
            state.notice = notice
            screen[side].clearMarks()
            return [.files(.list(session: screen.session, side, path: screen[side].path, select: select))]
        case .operationFailed(_, _, let text), .viewFailed(_, let text):
            state.notice = text
        case .viewed(_, let path, let bytes, let cut):
            var sanitizer = SessionState.outputSanitizer()
            var lines = ScrollbackBuffer(maxLines: bytes.count + 2)
            lines.append(sanitizer.feed(bytes) + sanitizer.finish())
            screen.pager = FilesPager(title: FileRow.display(path), lines: lines, cut: cut)
            state.notice = nil
        case .transfer(_, let id, let change):
            return transferChanged(&state, &screen, id: id, change)
        case .serverCopied(_, let id, let index, let copy):
            guard screen.serverCopies?.id == id, screen.serverCopies?.rows.indices.contains(index) == true else {
                return []
            }
            screen.serverCopies?.rows[index] = copy
            // All done: the server pane's folder received the files too (when its server was among them).
            if let copies = screen.serverCopies, copies.finished == copies.rows.count,
               let list = relist(screen, .remote) {
                return [list]
            }
        }
        return []
    }

    private static func transferChanged(_ state: inout AppState, _ screen: inout FilesState, id: Int,
                                        _ change: FilesTransferEvent) -> [Effect] {
        guard let item = screen.queue.items.first(where: { $0.id == id }) else { return [] }
        switch change {
        case .planned(let files, let bytes):
            screen.queue.change(id) {
                $0.progress = TransferProgress(file: [], fileDone: 0, fileSize: 0, totalDone: 0, totalBytes: bytes,
                                            filesDone: 0, filesTotal: files, bytesPerSecond: 0, secondsLeft: nil)
            }
        case .progress(let progress):
            screen.queue.change(id) { $0.progress = progress }
        case .fileFinished(let name, let problem):
            screen.queue.change(id) { item in
                if let problem { item.problems.append("\(FileRow.display(name)): \(problem)") } else {
                    item.filesArrived += 1
                }
            }
        case .finished(let end):
            guard item.state.isActive else { return [] }
            screen.queue.change(id) { $0.state = end == .paused ? .paused : .finished(end) }
            state.notice = transferSentence(item, end)
            let destination = item.request.from.other
            var effects: [Effect] = []
            if screen[destination].path == item.request.destination, let list = relist(screen, destination) {
                effects.append(list)
            }
            return effects + startNextTransfer(&screen)
        }
        return []
    }

    /// What the status line says when a listing left out names that are no file names (`PathBytes.componentProblem`:
    /// `..`, `a/b`, a NUL byte), which are never shown or used.
    static func omittedSentence(_ screen: FilesState, _ side: FilesSide, _ names: [[UInt8]]) -> String {
        let who = side == .local ? "This machine" : screen.serverName
        let count = CountText.text(names.count, "name")
        return "\(who) listed \(count) that \(names.count == 1 ? "is no file name" : "are not file names") "
            + "(\(quoted(names))); \(names.count == 1 ? "it is" : "they are") not shown."
    }

    /// The first three names in quotes for a sentence (`“a”, “b”, “c”, …`), sanitised.
    static func quoted(_ names: [[UInt8]]) -> String {
        names.prefix(3).map { "“\(FileRow.display($0))”" }.joined(separator: ", ") + (names.count > 3 ? ", …" : "")
    }

    /// What the status line says when a copy ends.
    static func transferSentence(_ item: TransferQueue.Item, _ end: FilesTransferEnd) -> String {
        switch end {
        case .arrived(let files, let bytes, let seconds):
            return "Copied \(files == 1 ? "1 file" : "\(files) files") (\(FilesView.bytes(bytes))) in "
                + DurationText.text(seconds, .elapsed) + "."
        case .incomplete(let failed, let of):
            let first = item.problems.first.map { " First: \($0)" } ?? ""
            return "\(failed) of \(of) files did not arrive.\(first)"
        case .stopped(let text): return text
        case .cancelled: return "Cancelled; no partial file was left."
        case .paused: return "Paused; p resumes it from where it stopped."
        }
    }
}

extension Effect {
    static func files(_ work: FilesWork) -> Effect { .work(.files(work)) }
}

extension FilesEvent {
    /// The opening of the Files screen this is about.
    var session: Int {
        switch self {
        case .connected(let session, _), .connectionFailed(let session, _), .listed(let session, _, _, _, _, _),
             .listFailed(let session, _, _, _), .operated(let session, _, _, _), .operationFailed(let session, _, _),
             .viewed(let session, _, _, _), .viewFailed(let session, _), .transfer(let session, _, _),
             .serverCopied(let session, _, _, _):
            return session
        }
    }
}
