import Foundation
import Operations
import TUIKit

/// The Files screen's own state: the two panes, which one has the keys, the question, confirmation or pager open
/// over them, the transfer queue, and the session it was opened from (shown again when the screen closes).
struct FilesState: Sendable {
    /// This opening of the screen: the worker's messages name it, so a closed screen's late ones are dropped.
    var session: Int
    /// The server's name as the list has it (the title; the marked-servers copy leaves it out).
    var serverName: String
    /// Set once logged in: `user@host` as the worker said it.
    var host: String?
    /// Why the server cannot be reached (its pane says it; the local pane still works).
    var connectionProblem: String?
    var local = FilesPane(side: .local)
    var remote = FilesPane(side: .remote)
    var active = FilesSide.local
    var question: FilesQuestion?
    var confirm: FilesConfirm?
    var pager: FilesPager?
    var queue = TransferQueue()
    /// The servers marked on the list when the screen opened (two or more): `m` copies to all of them.
    var markedServers: [ConnectionProfile] = []
    /// The last copy to the marked servers: a row per server.
    var serverCopies: FilesServerCopies?
    /// The session F11 came from, shown again when the screen closes (its connection waits meanwhile).
    var returnTo: SessionState?
    /// The zone modified times are shown in (the tests fix it).
    var timeZone = TimeZone.current

    init(session: Int, serverName: String, returnTo: SessionState? = nil) {
        self.session = session
        self.serverName = serverName
        self.returnTo = returnTo
    }

    subscript(side: FilesSide) -> FilesPane {
        get { side == .local ? local : remote }
        set { if side == .local { local = newValue } else { remote = newValue } }
    }

    /// The pane with the keys.
    var pane: FilesPane {
        get { self[active] }
        set { self[active] = newValue }
    }
}

/// A question typed into a field over the panes: a new name, a folder's name, a mode.
struct FilesQuestion: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// F6: the new name of this entry.
        case rename(FileRow)
        /// F7: a folder's name.
        case makeDirectory
        /// chmod: the octal mode for these paths.
        case changeMode([[UInt8]])
    }

    var kind: Kind
    var side: FilesSide
    var input: TextField
    var problem: String?

    var title: String {
        switch kind {
        case .rename: return "Rename"
        case .makeDirectory: return "Make folder"
        case .changeMode: return "Change mode"
        }
    }
}

/// F8's question: delete these, or keep them.
struct FilesConfirm: Sendable, Equatable {
    var side: FilesSide
    var paths: [[UInt8]]
    var message: String
    /// 0: Delete, 1: Keep (the default).
    var selected = 1

    static let buttons = ["Delete", "Keep"]
}

/// F3's pager: the start of a text file, sanitised as a session's output is.
struct FilesPager: Sendable {
    var title: String
    var lines: ScrollbackBuffer
    var view = TextViewState(follow: false)
    /// The file is longer than what was read.
    var cut: Bool
}

/// A copy to the marked servers: each server's status and per-file lines as they come.
struct FilesServerCopies: Sendable, Equatable {
    var id: Int
    /// What was sent where (`app.conf → :/etc/app/`).
    var label: String
    var rows: [FilesServerCopy]
    var finished: Int { rows.filter { $0.status != FilesServerCopies.copying }.count }

    static let copying = "copying"
}
