import RemoteCommands
import Foundation
import Inventory
import NetParsers
import TUIKit

/// Connecting, the session's command line and output, and the end of a session.
extension Update {
    static func connect(_ state: inout AppState, _ target: ConnectTarget, returnTo: Screen? = nil,
                        openShell: Bool = false) -> [Effect] {
        state.connecting = ConnectingState(target: target, stage: "Starting", startedAt: state.now,
                                           returnTo: returnTo ?? state.screen, openShell: openShell)
        state.screen = .connecting
        state.notice = nil
        return [.connect(target, knownHosts: state.settings.knownHosts)]
    }

    static func connection(_ state: inout AppState, _ message: Message) -> [Effect] {
        switch message {
        case .connectStage(let stage):
            state.connecting?.stage = stage
            return []
        case .prompt(let request):
            showPrompt(&state, request)
            return []
        case .connectFailed(let reason):
            let target = state.connecting?.target
            state.screen = state.connecting?.returnTo ?? .servers
            if state.screen == .connecting || state.screen == .form { state.screen = .servers }
            state.connecting = nil
            state.prompt = nil
            state.dialog = DialogState(
                purpose: .notice, title: "Could not connect",
                message: (target.map { "\($0.label(localUser: state.localUser)): " } ?? "") + reason,
                buttons: ["OK"])
            return []
        case .connected(let os, let auth, let at):
            guard let connecting = state.connecting else { return [.disconnect] }
            let target = connecting.target
            let osText = os?.rawValue ?? (target.os == .auto ? "unknown OS" : target.os.rawValue)
            var session = SessionState(target: target, title: target.label(localUser: state.localUser), os: osText,
                                       connectedAt: at, scrollbackLines: state.settings.scrollback,
                                       parse: state.settings.parse)
            session.remoteOS = os ?? RemoteOS(target.os)
            session.authUsed = auth
            session.scrollback.appendLine("Connected to \(session.title). Type a command and press Enter.")
            state.session = session
            state.connecting = nil
            state.screen = .session
            state.now = max(state.now, at)
            var shell: [Effect] = []
            if connecting.openShell {
                shell = openShell(&session, closeAfter: true)
                state.session = session
            }
            guard let name = target.name else { return shell }
            return [.recordConnection(name: name, os: os.map(\.serverOS)), .loadHistory(name)] + shell
        case .history(let commands):
            state.session?.history = commands
            return []
        case .output(let id, let bytes):
            guard var session = state.session, session.running?.id == id else { return [] }
            let text = session.sanitizer.feed(bytes)
            session.scrollback.append(text)
            if !text.isEmpty { session.atLineStart = text.hasSuffix("\n") }
            state.session = session
            return []
        case .commandFinished(let id, let status, let signal, let at):
            guard var session = state.session, let running = session.running, running.id == id else { return [] }
            let result = (signal.map { "killed by \($0)" } ?? "exit \(status.map(String.init) ?? "?")")
                + " · " + duration(at.timeIntervalSince(running.startedAt))
            finishCommand(&session, result: result)
            state.session = session
            guard let name = session.target.name, running.quick == nil else { return [] }
            return [.appendHistory(server: name, command: running.command, status: status.map(Int.init))]
        case .commandFailed(let id, let text, let lost, let at):
            guard var session = state.session, let running = session.running, running.id == id else { return [] }
            finishCommand(&session, result: text + " · " + duration(at.timeIntervalSince(running.startedAt)))
            state.session = session
            guard lost else { return [] }
            state.now = max(state.now, at)
            return endSession(&state, reason: text)
        case .connectionLost(let reason, let at):
            guard state.session != nil else { return [] }
            state.now = max(state.now, at)
            return endSession(&state, reason: reason)
        case .quickFinished(let id, let result, let at):
            guard var session = state.session, let running = session.running, running.id == id else { return [] }
            let took = duration(at.timeIntervalSince(running.startedAt))
            let note = result.error.map { " · \($0)" } ?? ""
            finishCommand(&session, result: "\(result.commandLine) · \(took)" + note)
            session.quick = result
            session.table = ListState()
            state.session = session
            return []
        default:
            return []
        }
    }

    static func finishCommand(_ session: inout SessionState, result: String) {
        let rest = session.sanitizer.finish()
        session.scrollback.append(rest)
        if !rest.isEmpty { session.atLineStart = rest.hasSuffix("\n") }
        if !session.atLineStart { session.scrollback.append("\n") }
        session.scrollback.appendLine("[\(result)]")
        session.atLineStart = true
        session.lastResult = result
        session.running = nil
        session.commandsRun += 1
    }

    static func showPrompt(_ state: inout AppState, _ request: PromptRequest) {
        switch request.kind {
        case .hostKey(let host, let port, let type, let fingerprint):
            let place = port == 22 ? host : "[\(host)]:\(port)"
            state.dialog = DialogState(
                purpose: .hostKey(request.id), title: "Unknown host key",
                message: "eSSH has never seen \(place) before. Its \(type) key has the fingerprint "
                    + "\(fingerprint). Compare it with the one your administrator gave you. Trust it?",
                buttons: ["Accept and save", "Once", "Cancel"])
        case .password(let user, let host, let attempt):
            state.prompt = PromptState(id: request.id, title: attempt > 1 ? "Wrong password, try again" : "Password",
                                       labels: ["Password for \(user)@\(host):"], echo: [false])
        case .passphrase(let file, let attempt):
            state.prompt = PromptState(id: request.id,
                                       title: attempt > 1 ? "Wrong passphrase, try again" : "Passphrase",
                                       labels: ["Passphrase for \(file):"], echo: [false])
        case .keyboard(let instruction, let prompts, let echo):
            state.prompt = PromptState(id: request.id, title: instruction.isEmpty ? "The server asks" : instruction,
                                       labels: prompts, echo: echo)
        }
    }

    static func sessionKey(_ state: inout AppState, _ key: Key) -> [Effect] {
        if let effects = outputKey(&state, key) { return effects }
        guard var session = state.session else { return [] }
        if SessionAction.table.action(for: key) == .end {
            return (session.running != nil ? [.cancelCommand] : []) + endSession(&state, reason: nil)
        }
        defer { state.session = session }
        let rows = ScreenLayout.outputRows(state.size)
        if session.search != nil, searchKey(&session, key, rows: rows, width: state.size.width) { return [] }
        let showingTable = session.quick?.table != nil && session.showParsed
        switch SessionAction.table.action(for: key) {
        case .run:
            let command = session.input.text.trimmingCharacters(in: .whitespaces)
            guard !command.isEmpty else { return [] }
            guard session.running == nil else {
                state.notice = "A command is still running: Esc stops it."
                return []
            }
            let id = startCommand(&session, line: "$ " + command, command: command, quick: nil, now: state.now)
            if session.history.last != command { session.history.append(command) }
            session.input.setText("")
            session.historyIndex = nil
            return [.run(id: id, command: command)]
        case .cancel:
            if session.running != nil { return [.cancelCommand] }
            session.quick = nil
        case .interfaces, .routes, .sockets:
            guard session.running == nil else {
                state.notice = "A command is still running: Esc stops it."
                return []
            }
            let kind: DataKind = key == .function(2) ? .interfaces : key == .function(3) ? .routes : .sockets
            let id = startCommand(&session, line: "$ [\(kind.rawValue)]", command: kind.rawValue, quick: kind,
                                  now: state.now)
            return [.runQuick(id: id, kind: kind, os: session.remoteOS)]
        case .shell:
            guard session.running == nil else {
                state.notice = "A command is still running: Esc stops it."
                return []
            }
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
        case .pageUp:
            if showingTable { session.table.pageUp(count: session.quick?.table?.rows.count ?? 0, pageSize: rows - 1) }
            else { session.view.scroll(by: -max(1, rows - 1), in: session.scrollback, height: rows) }
        case .pageDown:
            if showingTable { session.table.pageDown(count: session.quick?.table?.rows.count ?? 0, pageSize: rows - 1) }
            else { session.view.scroll(by: max(1, rows - 1), in: session.scrollback, height: rows) }
        case .top:
            if showingTable { session.table.selectFirst(count: session.quick?.table?.rows.count ?? 0) }
            else { session.view.scrollToTop(in: session.scrollback) }
        case .bottom:
            if showingTable { session.table.selectLast(count: session.quick?.table?.rows.count ?? 0) }
            else { session.view.scrollToBottom(in: session.scrollback, height: rows) }
        case .help: state.showHelp = true
        case .search:
            session.quick = nil
            session.search = SessionSearch()
        case .searchNext, .searchPrevious:
            state.notice = "Ctrl-F searches the output first."
        case .end, .mail, .save, .retryMail: return []
        case .pipe, nil:
            _ = session.input.handle(key)
        }
        return []
    }

    /// Keys while the search bar is open; false for the keys it leaves to the session (scrolling, F-keys).
    static func searchKey(_ session: inout SessionState, _ key: Key, rows: Int, width: Int) -> Bool {
        guard var search = session.search else { return false }
        let action = SessionAction.table.action(for: key)
        if action == .cancel {
            session.search = nil
            return true
        }
        defer { session.search = search }
        switch action {
        case .run:
            let term = search.input.text
            guard !term.isEmpty else { return true }
            if term == search.term, let current = search.current {
                find(&search, in: &session, from: current.before, .backward, rows: rows, width: width)
            } else {
                // A new term starts at the newest output: what was just printed is what people look for.
                search.term = term
                let end = SearchMatch.Position(line: session.scrollback.endLine - 1, byteOffset: Int.max / 2)
                find(&search, in: &session, from: end, .backward, rows: rows, width: width)
            }
        case .searchPrevious, .historyUp, .searchNext, .historyDown:
            guard !search.term.isEmpty else { return true }
            let backward = action == .searchPrevious || action == .historyUp
            let from = search.current.map { backward ? $0.before : $0.after }
                ?? SearchMatch.Position(line: session.view.top, byteOffset: 0)
            find(&search, in: &session, from: from, backward ? .backward : .forward, rows: rows, width: width)
        case .search: break
        case nil:
            _ = search.input.handle(key)
        default:
            return false
        }
        return true
    }

    private static func find(_ search: inout SessionSearch, in session: inout SessionState,
                             from position: SearchMatch.Position, _ direction: SearchDirection, rows: Int, width: Int)
    {
        guard let match = session.scrollback.search(search.term, from: position, direction: direction) else {
            search.current = nil
            search.notFound = true
            return
        }
        search.current = match
        search.notFound = false
        session.view.reveal(line: match.line, in: session.scrollback, height: rows)
        // Lines are not wrapped: scroll sideways when the match is beyond the right edge.
        let line = session.scrollback[match.line] ?? ""
        let before = String(decoding: line.utf8.prefix(match.byteRange.lowerBound), as: UTF8.self)
        let column = DisplayWidth.of(before)
        let matchWidth = DisplayWidth.of(search.term)
        if column < session.view.left || column + matchWidth > session.view.left + width {
            session.view.left = column + matchWidth > width ? max(0, column - width / 2) : 0
        }
    }

    static func startCommand(_ session: inout SessionState, line: String, command: String, quick: DataKind?,
                             now: Date) -> Int {
        let id = session.nextCommandId
        session.nextCommandId += 1
        session.sanitizer = TextSanitizer(policy: .dropStyling)
        session.scrollback.appendLine(line)
        session.atLineStart = true
        session.running = RunningCommand(id: id, command: command, startedAt: now, quick: quick)
        session.view.follow = true
        session.quick = nil
        return id
    }

    static func endSession(_ state: inout AppState, reason: String?) -> [Effect] {
        guard let session = state.session else { return [] }
        let seconds = max(0, Int(state.now.timeIntervalSince(session.connectedAt)))
        var unsaved: ServerDraft?
        if session.target.name == nil { unsaved = draft(for: session) }
        state.summary = SummaryState(title: session.title, seconds: seconds, commands: session.commandsRun,
                                     reason: reason, unsaved: unsaved)
        state.session = nil
        state.screen = .summary
        return [.disconnect]
    }

    /// A quick-connected host as a server to save: where it went, as whom, how the login worked, the OS found.
    static func draft(for session: SessionState) -> ServerDraft {
        let target = session.target
        var auth = AuthMethod.agent
        var keyPath: String?
        let used = session.authUsed ?? ""
        if used.hasPrefix("publickey (") && used.hasSuffix(")") {
            auth = .key
            keyPath = String(used.dropFirst("publickey (".count).dropLast())
        } else if used == "password" || used == "keyboard-interactive" {
            auth = .password
        }
        return ServerDraft(name: target.host, host: target.host, port: target.port, user: target.user, auth: auth,
                           keyPath: keyPath, os: session.remoteOS?.serverOS ?? target.os, tags: [], note: "")
    }

    static func scrollOutput(_ state: inout AppState, by lines: Int) {
        guard var session = state.session else { return }
        let rows = ScreenLayout.outputRows(state.size)
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
            session.view.scroll(by: lines, in: session.scrollback, height: rows)
        }
        state.session = session
    }

    static func duration(_ seconds: Double) -> String {
        let s = max(0, seconds)
        if s < 10 { return String(format: "%.2f s", s) }
        if s < 60 { return String(format: "%.1f s", s) }
        return "\(Int(s) / 60) min \(Int(s) % 60) s"
    }

}
