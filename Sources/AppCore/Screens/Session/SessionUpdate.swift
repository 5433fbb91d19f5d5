import Basics
import SSH
import Foundation
import Inventory
import NetParsers
import TUIKit

/// The session's keys (the command line, history, scrolling, quick commands, search) and how a session ends.
extension Update {
    static func sessionKey(_ state: inout AppState, _ action: SessionAction?, _ key: Key) -> [Effect] {
        switch action {
        case .end?:
            let running = state.session?.running != nil
            return (running ? [.cancelCommand] : []) + endSession(&state, reason: nil)
        case .files?: return openFilesFromSession(&state)
        case .mail?, .save?, .pipe?, .retryMail?:
            // The output tools (OutputTools/); nil: `|` on a command line being typed is typed.
            if state.session?.historySearch == nil, let effects = openOutputTool(&state, action) { return effects }
        default: break
        }
        // The session is changed in place: its scrollback is never copied.
        return state.withSession { session, state in sessionKey(&session, &state, action, key) } ?? []
    }

    /// What the session says when a command cannot run because the connection is lost.
    static let notConnected = "Not connected: r on an empty line reconnects (the output stays); F10 ends the session."

    /// A key the session itself takes (the command line, history, scrolling, quick commands, search).
    private static func sessionKey(_ session: inout SessionState, _ state: inout AppState, _ action: SessionAction?,
                                   _ key: Key) -> [Effect] {
        let rows = ScreenLayout.outputRows(state.size)
        let wrap = wrapWidth(state)
        if session.historySearch != nil {
            return historySearchKey(&session, &state, HistorySearchAction.table.action(for: key), key)
        }
        if session.search != nil,
           searchKey(&session, SearchAction.table.action(for: key), action, key, rows: rows, width: state.size.width,
                     wrapWidth: wrap) {
            return []
        }
        let showingTable = session.quick?.table != nil && session.showParsed
        switch action {
        case .run:
            return runLine(&session, &state)
        case .cancel:
            if session.running != nil {
                session.running?.stoppedWith = "Esc"
                return [.cancelCommand]
            }
            if case .reconnecting = session.link { return [.cancelConnect] }
            session.quick = nil
        case .interrupt:
            // Ctrl-C as in a shell: stops what runs, else throws the line away.
            if session.running != nil {
                session.running?.stoppedWith = "^C"
                return [.cancelCommand]
            }
            if case .reconnecting = session.link { return [.cancelConnect] }
            session.input.setText("")
            session.historyIndex = nil
        case .reconnect:
            guard case .lost = session.link, session.input.text.isEmpty else {
                _ = session.input.handle(key)
                return []
            }
            session.link = .reconnecting("Starting")
            state.notice = nil
            return [.connect(session.target, knownHosts: state.settings.knownHosts, keepalive: state.settings.keepalive)]
        case .interfaces, .routes, .sockets:
            guard canStart(session, &state) else { return [] }
            guard let kind = action?.dataKind else { return [] }
            let id = session.startCommand(line: "$ [\(kind.rawValue)]", command: kind.rawValue, quick: kind,
                                          now: state.now)
            return [.runQuick(id: id, kind: kind, os: session.remoteOS)]
        case .shell:
            guard canStart(session, &state) else { return [] }
            return openShell(&session, closeAfter: false)
        case .toggleParsed: session.showParsed.toggle()
        case .historyUp:
            guard !session.history.isEmpty else { return [] }
            if session.historyIndex == nil { session.draft = session.input.text }
            let index = max(0, (session.historyIndex ?? session.history.count) - 1)
            session.historyIndex = index
            session.input.setText(session.history[index])
        case .historyDown:
            guard let index = session.historyIndex else { return [] }
            if index + 1 < session.history.count {
                session.historyIndex = index + 1
                session.input.setText(session.history[index + 1])
            } else {
                session.historyIndex = nil
                session.input.setText(session.draft)
            }
        case .historySearch:
            session.search = nil
            session.historySearch = HistorySearch(draft: session.input.text)
        case .pageUp:
            if showingTable { session.table.pageUp(count: session.quick?.table?.rows.count ?? 0, pageSize: rows - 1) }
            else { session.view.scroll(by: -max(1, rows - 1), in: session.scrollback, height: rows, wrapWidth: wrap) }
        case .pageDown:
            if showingTable { session.table.pageDown(count: session.quick?.table?.rows.count ?? 0, pageSize: rows - 1) }
            else { session.view.scroll(by: max(1, rows - 1), in: session.scrollback, height: rows, wrapWidth: wrap) }
        case .top:
            if showingTable { session.table.selectFirst(count: session.quick?.table?.rows.count ?? 0) }
            else { session.view.scrollToTop(in: session.scrollback) }
        case .bottom:
            if showingTable { session.table.selectLast(count: session.quick?.table?.rows.count ?? 0) }
            else { session.view.scrollToBottom(in: session.scrollback, height: rows, wrapWidth: wrap) }
        case .scrollLeft, .scrollRight:
            // ← → edit a line being typed; on an empty one they scroll long lines sideways (when they do not wrap).
            guard session.input.text.isEmpty, wrap == nil, !showingTable else {
                _ = session.input.handle(key)
                return []
            }
            let step = max(8, state.size.width / 2)
            session.view.left = max(0, session.view.left + (action == .scrollLeft ? -step : step))
        case .help: state.showHelp = true
        case .search:
            session.quick = nil
            session.historySearch = nil
            session.search = SessionSearch()
        case .searchNext, .searchPrevious:
            state.notice = "Ctrl-F searches the output first."
        case .end, .mail, .save, .retryMail, .files: return []
        case .pipe, nil:
            _ = session.input.handle(key)
        }
        return []
    }

    /// The width the session's lines wrap at, nil when they scroll sideways (`session.wrap`).
    static func wrapWidth(_ state: AppState) -> Int? {
        ScreenLayout.sessionLines(wrap: state.settings.wrapLines, unicode: state.unicode)
            .wrapWidth(ScreenLayout.session(state.size).output.width)
    }

    /// Whether something new may start: connected, and nothing running (else the notice says why).
    private static func canStart(_ session: SessionState, _ state: inout AppState) -> Bool {
        guard session.link == .up else {
            state.notice = notConnected
            return false
        }
        guard session.running == nil else {
            state.notice = "A command is still running: Esc stops it."
            return false
        }
        return true
    }

    /// Enter: the command line runs — in the session, or on a terminal of its own (`TerminalCommand`).
    private static func runLine(_ session: inout SessionState, _ state: inout AppState) -> [Effect] {
        let command = session.input.text.trimmingCharacters(in: .whitespaces)
        guard !command.isEmpty, canStart(session, &state) else { return [] }
        if session.history.last != command { session.history.append(command) }
        session.input.setText("")
        session.historyIndex = nil
        if let terminal = TerminalCommand.classify(command) {
            session.scrollback.appendLine("$ " + command)
            session.atLineStart = true
            session.view.follow = true
            session.quick = nil
            return [.handOver(.terminal(line: command, command: terminal.command, title: session.title))]
        }
        let id = session.startCommand(line: "$ " + command, command: command, quick: nil, now: state.now)
        return [.run(id: id, command: command)]
    }

    /// Keys while Ctrl-R searches the history (`action` from its table); other keys type the term.
    private static func historySearchKey(_ session: inout SessionState, _ state: inout AppState,
                                         _ action: HistorySearchAction?, _ key: Key) -> [Effect] {
        guard var search = session.historySearch else { return [] }
        let found = search.found(in: session.history)
        switch action {
        case .run?:
            session.historySearch = nil
            session.input.setText(found ?? search.draft)
            return found == nil ? [] : runLine(&session, &state)
        case .older?:
            search.older(in: session.history)
        case .cancel?:
            session.historySearch = nil
            session.input.setText(search.draft)
            return []
        case .edit?:
            session.historySearch = nil
            session.input.setText(found ?? search.draft)
            return []
        case nil:
            search.type(key, in: session.history)
        }
        session.historySearch = search
        return []
    }

    /// Keys while the search bar is open (`action` from its table); false for the keys it leaves to the session
    /// (`sessionAction`: scrolling, F-keys). Other keys type the term.
    static func searchKey(_ session: inout SessionState, _ action: SearchAction?, _ sessionAction: SessionAction?,
                          _ key: Key, rows: Int, width: Int, wrapWidth: Int?) -> Bool {
        guard var search = session.search else { return false }
        if action == .close {
            session.search = nil
            return true
        }
        defer { session.search = search }
        switch action {
        case .find?:
            let term = search.input.text
            guard !term.isEmpty else { return true }
            if term == search.term, let current = search.current {
                find(&search, in: &session, from: current.before, .backward, rows: rows, width: width, wrapWidth: wrapWidth)
            } else {
                // A new term starts at the newest output: what was just printed is what people look for.
                search.term = term
                let end = SearchMatch.Position(line: session.scrollback.endLine - 1, byteOffset: Int.max / 2)
                find(&search, in: &session, from: end, .backward, rows: rows, width: width, wrapWidth: wrapWidth)
            }
        case .older?, .newer?:
            guard !search.term.isEmpty else { return true }
            let backward = action == .older
            let from = search.current.map { backward ? $0.before : $0.after }
                ?? SearchMatch.Position(line: session.view.top, byteOffset: 0)
            find(&search, in: &session, from: from, backward ? .backward : .forward, rows: rows, width: width,
                 wrapWidth: wrapWidth)
        case .stay?, .close?: break
        case nil:
            guard sessionAction == nil else { return false }
            _ = search.input.handle(key)
        }
        return true
    }

    private static func find(_ search: inout SessionSearch, in session: inout SessionState,
                             from position: SearchMatch.Position, _ direction: SearchDirection, rows: Int, width: Int,
                             wrapWidth: Int?)
    {
        guard let match = session.scrollback.search(search.term, from: position, direction: direction) else {
            search.current = nil
            search.notFound = true
            return
        }
        search.current = match
        search.notFound = false
        let line = session.scrollback[match.line] ?? ""
        let row = WrappedLine.row(of: match.byteRange.lowerBound, in: line, width: wrapWidth)
        session.view.reveal(line: match.line, row: row, in: session.scrollback, height: rows, wrapWidth: wrapWidth)
        guard wrapWidth == nil else { return }
        // Lines do not wrap: scroll sideways when the match is beyond the right edge.
        let before = String(decoding: line.utf8.prefix(match.byteRange.lowerBound), as: UTF8.self)
        let column = DisplayWidth.of(before)
        let matchWidth = DisplayWidth.of(search.term)
        if column < session.view.left || column + matchWidth > session.view.left + width {
            session.view.left = column + matchWidth > width ? max(0, column - width / 2) : 0
        }
    }

    /// The running command failed; when the connection went with it, the session says so and waits for `r`.
    static func commandFailed(_ state: inout AppState, id: Int, message: String, connectionLost: Bool, at: Date)
        -> [Effect]
    {
        guard state.withSession({ session, _ in session.commandFailed(id: id, message: message, at: at) }) == true,
              connectionLost else { return [] }
        state.now = max(state.now, at)
        return sessionLost(&state, reason: message)
    }

    static func endSession(_ state: inout AppState, reason: String?) -> [Effect] {
        guard let session = state.session else { return [] }
        if case .reconnecting = session.link { state.abandonedReconnect = true }
        let seconds = max(0, Int(state.now.timeIntervalSince(session.connectedAt)))
        var unsaved: ServerDraft?
        if session.target.name == nil { unsaved = draft(for: session) }
        state.show(.summary(SummaryState(title: session.title, seconds: seconds, commands: session.commandsRun,
                                         reason: reason, unsaved: unsaved)))
        return [.disconnect]
    }

    /// A quick-connected host as a server to save: where it went, as whom, how the login worked, the OS found.
    static func draft(for session: SessionState) -> ServerDraft {
        let target = session.target
        var auth = AuthMethod.agent
        var keyPath: String?
        switch session.authUsed {
        case .keyFile(let path)?:
            auth = .key
            keyPath = path
        case .password?, .keyboardInteractive?: auth = .password
        case .agent?, .none?, nil: auth = .agent
        }
        return ServerDraft(name: target.host, host: target.host, port: target.port, user: target.user, auth: auth,
                           keyPath: keyPath, os: session.remoteOS, tags: [], note: "")
    }

    static func scrollOutput(_ state: inout AppState, by lines: Int) {
        let rows = ScreenLayout.outputRows(state.size)
        let wrap = wrapWidth(state)
        state.withSession { session, _ in scrollOutput(&session, by: lines, rows: rows, wrapWidth: wrap) }
    }

    private static func scrollOutput(_ session: inout SessionState, by lines: Int, rows: Int, wrapWidth: Int?) {
        if session.quick?.table != nil && session.showParsed {
            let count = session.quick?.table?.rows.count ?? 0
            for _ in 0..<abs(lines) {
                if lines < 0 {
                    session.table.selectPrevious(count: count)
                } else {
                    session.table.selectNext(count: count)
                }
            }
        } else {
            session.view.scroll(by: lines, in: session.scrollback, height: rows, wrapWidth: wrapWidth)
        }
    }
}
