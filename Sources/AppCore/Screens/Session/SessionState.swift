import Basics
import SSH
import Operations
import Foundation
import NetParsers
import TUIKit

/// An open session: its output, the command line, history, and the command running now.
struct SessionState: Sendable {
    var target: ConnectionProfile
    var title: String
    var os: String
    var connectedAt: Date
    var scrollback: ScrollbackBuffer
    var view = TextViewState()
    /// Colours are dropped (the output view is plain text); every other control sequence is shown, not obeyed; a
    /// lone CR writes over its line, so a progress bar (apt, wget, dd, curl) updates one line.
    var sanitizer = SessionState.outputSanitizer()
    var input = TextField()
    /// The search bar and its match (Ctrl-F); nil when closed.
    var search: SessionSearch?
    /// How the login worked (`publickey (~/.ssh/id_ed25519)`, `password`), to save a quick-connected host.
    var authUsed: LoginMethod?
    /// The password that logged in came from the vault (the header says `password (vault)`).
    var loginFromVault = false
    /// Commands typed before, oldest first.
    var history: [String] = []
    /// Where Up/Down is in `history` (nil: editing a new line).
    var historyIndex: Int?
    /// The line being typed before Up was pressed.
    var draft = ""
    var running: RunningCommand?
    var nextCommandId = 1
    var commandsRun = 0
    /// `exit 0 · 0.12 s` for the last command.
    var lastResult: String?
    /// The server's system as known now: detected on connecting or stored; `auto` when neither (each quick command
    /// then detects it).
    var remoteOS: ServerOS = .auto
    var quick: QuickResult?
    var showParsed: Bool
    var table = ListState()
    /// Whether the output so far ends a line (so the result line starts on its own).
    var atLineStart = true
    /// The last command's raw output and end, for mail, save and pipe (OutputTools/).
    var capture: OutputCapture?
    /// Opened only for a shell (from the servers screen): it ends with the shell.
    var closeAfterShell = false
    /// How commands run: in one shell that lasts, or one per command (nil until the server answered).
    var shellMode: ShellMode?
    /// Whether the connection is up, lost (the output stays; `r` reconnects) or being made again.
    var link = SessionLink.up
    /// Ctrl-R's search of the history, in place of the command line; nil when closed.
    var historySearch: HistorySearch?

    /// The sanitiser each command's output goes through.
    static func outputSanitizer() -> TextSanitizer { TextSanitizer(policy: .dropStyling, carriageReturn: .overwrite) }

    init(target: ConnectionProfile, title: String, os: String, connectedAt: Date, scrollbackLines: Int, parse: Bool) {
        self.target = target
        self.title = title
        self.os = os
        self.connectedAt = connectedAt
        scrollback = ScrollbackBuffer(maxLines: scrollbackLines)
        showParsed = parse
    }
}

/// The session's connection, as the screen shows it.
enum SessionLink: Sendable, Equatable {
    /// Connected.
    case up
    /// Lost (why, as a sentence); the output stays, `r` connects again.
    case lost(String)
    /// Being made again after `r`: the stage reached.
    case reconnecting(String)
}
