import Foundation
import Inventory
import Operations
import Testing
import TUIKit
import Transfer
@testable import AppCore

/// The Files screen's pure core: opened with f (or F11 in a session), the panes browsed, filtered, sorted and
/// marked, every change asked of the files worker as an effect, its answers drawn (names sanitised), the transfer
/// queue with its progress, cancel, pause and resume.
@Suite struct FilesUpdateTests {
    static let t0: Int64 = 1_800_000_000

    static func row(_ name: String, _ kind: FileRow.Kind = .file, size: Int64 = 100, mode: UInt32 = 0o644,
                    modified: Int64 = t0 - 3600) -> FileRow {
        FileRow(name: Array(name.utf8), kind: kind, size: size, mode: mode, owner: "admin", modified: modified)
    }

    static let localRows = [row("notes.txt", size: 12), row("src", .directory, mode: 0o755),
                            row("big.iso", size: 734_003_200, modified: t0 - 60), row("a.sh", size: 50, mode: 0o755)]
    static let remoteRows = [row("app.conf", size: 2048), row("logs", .directory, mode: 0o750)]

    /// The Files screen of the first server, logged in, both panes listed.
    static func opened(size: Size = Size(width: 100, height: 24)) -> AppState {
        var state = Fixtures.loaded(size: size)
        _ = Update.update(&state, .checkFinished(error: nil, at: Fixtures.now))
        Fixtures.keys(&state, .character("f"))
        _ = Update.update(&state, .files(.connected(session: 1, host: "admin@10.0.0.5")))
        _ = Update.update(&state, .files(.listed(session: 1, .local, path: Array("/home/me".utf8),
                                                 entries: localRows, select: nil)))
        _ = Update.update(&state, .files(.listed(session: 1, .remote, path: Array("/srv".utf8), entries: remoteRows,
                                                 select: nil)))
        state.changeFiles { $0.timeZone = TimeZone(identifier: "UTC")! }
        return state
    }

    static func files(_ state: AppState) -> FilesState? {
        if case .files(let files) = state.screen { return files } else { return nil }
    }

    static func text(_ state: AppState) -> String { Fixtures.screen(state).joined(separator: "\n") }

    static func names(_ pane: FilesPane) -> [String] { pane.rows.map { String(decoding: $0.name, as: UTF8.self) } }

    @Test func fOpensTheSelectedServersFilesAndAsksTheWorkerToLogIn() throws {
        var state = Fixtures.loaded()
        let server = try #require(state.selectedServer)
        let effects = Fixtures.keys(&state, .character("f"))
        #expect(effects == [.files(.open(session: 1, server: ConnectionProfile(server: server),
                                         knownHosts: state.settings.knownHosts, remoteStart: .home, localStart: nil))])
        #expect(state.screen.kind == .files)
        #expect(Self.text(state).contains("Connecting"))
        Fixtures.keys(&state, .character("q"))
        #expect(state.screen.kind == .servers)
        // A second opening is another session: the first one's late messages are dropped.
        #expect(Fixtures.keys(&state, .character("f")).first?.work == .files(.open(
            session: 2, server: ConnectionProfile(server: server), knownHosts: state.settings.knownHosts,
            remoteStart: .home, localStart: nil)))
        _ = Update.update(&state, .files(.listed(session: 1, .local, path: [47], entries: Self.localRows,
                                                 select: nil)))
        #expect(Self.files(state)?.local.rows.isEmpty == true)
    }

    @Test func bothPanesListFoldersFirstWithSizeModeOwnerAndTime() throws {
        let state = Self.opened(size: Size(width: 160, height: 24))
        let files = try #require(Self.files(state))
        #expect(Self.names(files.local) == ["src", "a.sh", "big.iso", "notes.txt"])
        let text = Self.text(state)
        #expect(text.contains("local: /home/me"))
        #expect(text.contains("/srv"))
        #expect(text.contains("drwxr-xr-x") && text.contains("-rw-r--r--") && text.contains("admin"))
        #expect(text.contains(" 700M "), "734,003,200 bytes as 700M:\n\(text)")
        #expect(text.contains("Jan 15 07:00") || text.contains("Jan 15 08:00"), "\(text)")
    }

    @Test func hostileNamesAreShownSanitisedNeverObeyed() throws {
        var state = Self.opened()
        let hostile = [FileRow(name: Array("two\nlines".utf8), kind: .file, size: 1, mode: 0o644, owner: "x",
                               modified: Self.t0),
                       FileRow(name: Array("\u{1B}[2J\u{1B}]0;pwned\u{07}".utf8), kind: .file, size: 1, mode: 0o644,
                               owner: "\u{1B}[31mroot", modified: Self.t0),
                       FileRow(name: [0x66, 0xFF, 0xFE, 0x6F], kind: .file, size: 1, mode: 0o644, owner: "x",
                               modified: Self.t0)]
        _ = Update.update(&state, .files(.listed(session: 1, .local, path: Array("/tmp".utf8), entries: hostile,
                                                 select: nil)))
        let lines = Fixtures.screen(state)
        let text = lines.joined(separator: "\n")
        #expect(text.contains("two␊lines"))
        #expect(text.contains("␛[2J␛]0;pwned␇"))
        #expect(text.contains("f\u{FFFD}"))
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(lines.count == state.size.height, "a newline in a name adds no line")
        // The status line shows the selected one whole, sanitised too.
        Fixtures.keys(&state, .down, .down)
        #expect(Fixtures.screen(state)[state.size.height - 2].contains("␛[31mroot"))
    }

    @Test func enterOpensAFolderAndBackspaceGoesUpSelectingTheFolderLeft() throws {
        var state = Self.opened()
        // src is first (folders first).
        #expect(Fixtures.keys(&state, .enter) == [.files(.list(session: 1, .local, path: Array("/home/me/src".utf8),
                                                                select: nil))])
        _ = Update.update(&state, .files(.listed(session: 1, .local, path: Array("/home/me/src".utf8),
                                                 entries: [Self.row("main.swift")], select: nil)))
        #expect(Fixtures.keys(&state, .backspace) == [.files(.list(session: 1, .local, path: Array("/home/me".utf8),
                                                                    select: Array("src".utf8)))])
        _ = Update.update(&state, .files(.listed(session: 1, .local, path: Array("/home/me".utf8),
                                                 entries: Self.localRows, select: Array("src".utf8))))
        #expect(Self.files(state)?.local.selected?.name == Array("src".utf8))
        // Enter on a file opens nothing and says what would.
        Fixtures.keys(&state, .down)
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.notice?.contains("F3 views it") == true)
        // At / there is no folder above.
        _ = Update.update(&state, .files(.listed(session: 1, .local, path: [47], entries: [], select: nil)))
        #expect(Fixtures.keys(&state, .backspace).isEmpty)
        // Tab: the server's pane takes the keys.
        Fixtures.keys(&state, .tab)
        #expect(Fixtures.keys(&state, .enter) == [.files(.list(session: 1, .remote, path: Array("/srv/logs".utf8),
                                                                select: nil))])
        Fixtures.keys(&state, .down)
        #expect(Fixtures.keys(&state, .enter).isEmpty, "app.conf is a file")
    }

    @Test func slashFiltersTheNamesAndEscClearsIt() throws {
        var state = Self.opened()
        Fixtures.keys(&state, .character("/"))
        Fixtures.type(&state, "SH")
        #expect(Self.names(try #require(Self.files(state)).local) == ["a.sh"], "case-insensitive")
        Fixtures.keys(&state, .enter)
        #expect(Self.files(state)?.local.filtering == false)
        #expect(Self.text(state).contains("[/SH]"))
        Fixtures.keys(&state, .escape)
        #expect(Self.names(try #require(Self.files(state)).local).count == 4)
        #expect(state.screen.kind == .files, "the first Esc clears the filter, it does not leave")
    }

    @Test func sSortsBySizeThenTimeThenNameFoldersFirst() throws {
        var state = Self.opened()
        Fixtures.keys(&state, .character("s"))
        #expect(Self.names(try #require(Self.files(state)).local) == ["src", "big.iso", "a.sh", "notes.txt"])
        Fixtures.keys(&state, .character("s"))
        #expect(Self.names(try #require(Self.files(state)).local) == ["src", "big.iso", "a.sh", "notes.txt"])
        Fixtures.keys(&state, .character("s"))
        #expect(Self.names(try #require(Self.files(state)).local) == ["src", "a.sh", "big.iso", "notes.txt"])
    }

    @Test func spaceAndStarMarkAndF5CopiesTheMarkedIntoTheOtherPane() throws {
        var state = Self.opened()
        Fixtures.keys(&state, .down, .character(" "), .character(" "))
        #expect(Self.files(state)?.local.marks == [Array("a.sh".utf8), Array("big.iso".utf8)])
        Fixtures.keys(&state, .character("*"))
        #expect(Self.files(state)?.local.marks == [Array("src".utf8), Array("notes.txt".utf8)])
        Fixtures.keys(&state, .character("*"))
        let request = FilesTransferRequest(from: .local, sources: [Array("/home/me/a.sh".utf8),
                                                                  Array("/home/me/big.iso".utf8)],
                                           destination: Array("/srv".utf8), resume: false)
        #expect(Fixtures.keys(&state, .function(5)) == [.files(.transfer(session: 1, id: 1, request))])
        #expect(Self.files(state)?.local.marks.isEmpty == true)
        // A second copy waits for the first.
        Fixtures.keys(&state, .tab)
        #expect(Fixtures.keys(&state, .alt("5")).isEmpty)
        #expect(Self.files(state)?.queue.items.map(\.state) == [.running, .waiting])
        let download = FilesTransferRequest(from: .remote, sources: [Array("/srv/logs".utf8)],
                                            destination: Array("/home/me".utf8), resume: false)
        // The server's pane is listed again, then the waiting download starts (the selected logs, into /home/me).
        #expect(Update.update(&state, .files(.transfer(session: 1, id: 1, .finished(.arrived(
            files: 2, bytes: 734_003_250, seconds: 3)))))
            == [.files(.list(session: 1, .remote, path: Array("/srv".utf8), select: nil)),
                .files(.transfer(session: 1, id: 2, download))])
        let effects = Update.update(&state, .files(.transfer(session: 1, id: 1, .finished(.arrived(
            files: 2, bytes: 1, seconds: 1)))))
        #expect(effects.isEmpty, "a finish said twice starts nothing twice")
        #expect(Self.files(state)?.queue.items.map(\.state)
                == [.finished(.arrived(files: 2, bytes: 734_003_250, seconds: 3)), .running])
        #expect(state.notice == "Copied 2 files (734.0 MB) in 3.0 s.")
    }

    @Test func theFinishOfACopyListsTheDestinationAndStartsTheNext() throws {
        var state = Self.opened()
        Fixtures.keys(&state, .function(5))
        Fixtures.keys(&state, .down, .function(5))
        let effects = Update.update(&state, .files(.transfer(session: 1, id: 1, .finished(.arrived(
            files: 1, bytes: 1, seconds: 0.1)))))
        let next = FilesTransferRequest(from: .local, sources: [Array("/home/me/a.sh".utf8)],
                                        destination: Array("/srv".utf8), resume: false)
        #expect(effects == [.files(.list(session: 1, .remote, path: Array("/srv".utf8), select: nil)),
                            .files(.transfer(session: 1, id: 2, next))])
    }

    @Test func progressIsDrawnWithPercentRateAndTimeLeft() throws {
        var state = Self.opened(size: Size(width: 120, height: 24))
        Fixtures.keys(&state, .down, .down, .function(5))
        _ = Update.update(&state, .files(.transfer(session: 1, id: 1, .planned(files: 1, bytes: 734_003_200))))
        _ = Update.update(&state, .files(.transfer(session: 1, id: 1, .progress(TransferProgress(
            file: Array("/srv/big.iso".utf8), fileDone: 367_001_600, fileSize: 734_003_200, totalDone: 367_001_600,
            totalBytes: 734_003_200, filesDone: 0, filesTotal: 1, bytesPerSecond: 52_000_000, secondsLeft: 7)))))
        let text = Self.text(state)
        #expect(text.contains("↑ big.iso → web1:/srv") || text.contains("big.iso →"), "\(text)")
        #expect(text.contains("50% 367.0 MB of 734.0 MB · 52.0 MB/s · 7 s left · file 1 of 1: big.iso 50%"),
                "\(text)")
        #expect(text.contains("copying"))
    }

    @Test func escCancelsTheRunningCopyThenLeaves() throws {
        var state = Self.opened()
        Fixtures.keys(&state, .function(5))
        #expect(Fixtures.keys(&state, .escape) == [.files(.cancel(session: 1, id: 1))])
        #expect(Fixtures.keys(&state, .escape).isEmpty, "cancelling already")
        #expect(state.screen.kind == .files)
        _ = Update.update(&state, .files(.transfer(session: 1, id: 1, .finished(.cancelled))))
        #expect(state.notice == "Cancelled; no partial file was left.")
        #expect(Self.text(state).contains("cancelled"))
        #expect(Fixtures.keys(&state, .escape) == [.files(.close(session: 1))])
        #expect(state.screen.kind == .servers)
    }

    @Test func leavingWithACopyRunningCancelsIt() {
        var state = Self.opened()
        Fixtures.keys(&state, .function(5))
        #expect(Fixtures.keys(&state, .character("q")) == [.files(.cancel(session: 1, id: 1)),
                                                             .files(.close(session: 1))])
    }

    @Test func pPausesKeepingThePartialAndAgainResumesIt() throws {
        var state = Self.opened()
        Fixtures.keys(&state, .down, .down, .function(5))
        #expect(Fixtures.keys(&state, .character("p")) == [.files(.pause(session: 1, id: 1))])
        _ = Update.update(&state, .files(.transfer(session: 1, id: 1, .finished(.paused))))
        #expect(Self.text(state).contains("paused (p resumes)"))
        var resumed = FilesTransferRequest(from: .local, sources: [Array("/home/me/big.iso".utf8)],
                                           destination: Array("/srv".utf8), resume: false)
        resumed.resume = true
        #expect(Fixtures.keys(&state, .character("p")) == [.files(.transfer(session: 1, id: 1, resumed))])
        #expect(Fixtures.keys(&state, .character("p")) == [.files(.pause(session: 1, id: 1))])
    }

    @Test func f6RenamesAfterCheckingTheName() throws {
        var state = Self.opened()
        Fixtures.keys(&state, .down, .function(6))
        #expect(Self.files(state)?.question?.input.text == "a.sh")
        #expect(Self.text(state).contains("New name for a.sh in /home/me:"))
        Fixtures.keys(&state, .backspace, .backspace, .backspace)
        Fixtures.type(&state, "/x")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(Self.files(state)?.question?.problem == "A name cannot hold /.")
        Fixtures.keys(&state, .backspace, .backspace)
        Fixtures.type(&state, "run.sh")
        #expect(Fixtures.keys(&state, .enter) == [.files(.operate(session: 1, .local, .rename(
            from: Array("/home/me/a.sh".utf8), to: Array("/home/me/arun.sh".utf8))))])
        #expect(Self.files(state)?.question == nil)
        // The worker's answer: a notice and the pane listed again, selecting nothing in particular.
        #expect(Update.update(&state, .files(.operated(session: 1, .local, notice: "Renamed.", select: nil)))
                == [.files(.list(session: 1, .local, path: Array("/home/me".utf8), select: nil))])
        #expect(state.notice == "Renamed.")
        // A name that cannot be typed is not put in the field.
        _ = Update.update(&state, .files(.listed(session: 1, .local, path: Array("/home/me".utf8),
                                                 entries: [FileRow(name: [0x61, 0xFF], kind: .file, size: 1,
                                                                   mode: 0o644, owner: "me", modified: 0)],
                                                 select: nil)))
        Fixtures.keys(&state, .function(6))
        #expect(Self.files(state)?.question?.input.text == "")
        #expect(Self.files(state)?.question?.problem?.contains("cannot be typed") == true)
        Fixtures.keys(&state, .escape)
        #expect(Self.files(state)?.question == nil)
    }

    @Test func f7MakesAFolderOnTheServer() {
        var state = Self.opened()
        Fixtures.keys(&state, .tab, .function(7))
        #expect(Fixtures.keys(&state, .enter).isEmpty, "a name is needed")
        Fixtures.type(&state, "new dir")
        #expect(Fixtures.keys(&state, .enter) == [.files(.operate(session: 1, .remote,
                                                                   .makeDirectory(Array("/srv/new dir".utf8))))])
    }

    @Test func f8AsksFirstAndKeepIsTheDefault() throws {
        var state = Self.opened()
        Fixtures.keys(&state, .function(8))
        #expect(Self.text(state).contains("Delete src and everything in it from /home/me?"))
        #expect(Fixtures.keys(&state, .enter).isEmpty, "Enter on Keep")
        #expect(Self.files(state)?.confirm == nil)
        Fixtures.keys(&state, .function(8))
        #expect(Fixtures.keys(&state, .escape).isEmpty)
        #expect(state.screen.kind == .files, "Esc closed the question only")
        Fixtures.keys(&state, .down, .character(" "), .character(" "), .delete)
        #expect(Self.text(state).contains("Delete 2 entries"))
        #expect(Fixtures.keys(&state, .left, .enter) == [.files(.operate(session: 1, .local, .remove(
            [Array("/home/me/a.sh".utf8), Array("/home/me/big.iso".utf8)])))])
        Fixtures.keys(&state, .function(8))
        #expect(Fixtures.keys(&state, .character("d")).count == 1, "the button's letter")
    }

    @Test func cChangesTheModeInOctalOnly() throws {
        var state = Self.opened()
        Fixtures.keys(&state, .down, .character("c"))
        #expect(Self.files(state)?.question?.input.text == "755")
        Fixtures.keys(&state, .backspace, .backspace, .backspace)
        Fixtures.type(&state, "798")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(Self.files(state)?.question?.problem?.contains("octal") == true)
        Fixtures.keys(&state, .backspace, .backspace, .backspace)
        Fixtures.type(&state, "0640")
        #expect(Fixtures.keys(&state, .enter) == [.files(.operate(session: 1, .local, .changeMode(
            [Array("/home/me/a.sh".utf8)], to: 0o640)))])
        #expect(Update.octalMode("2775") == 0o2775 && Update.octalMode("7") == 0o7)
        #expect(Update.octalMode("17777") == nil && Update.octalMode("") == nil && Update.octalMode("-1") == nil)
        #expect(Update.octalMode("64 4") == nil && Update.octalMode("0x1") == nil)
    }

    @Test func f3ShowsTheStartOfAFileSanitisedInAPager() throws {
        var state = Self.opened()
        Fixtures.keys(&state, .function(3))
        #expect(state.notice?.contains("folder") == true, "src is a folder")
        Fixtures.keys(&state, .down, .down, .down)
        #expect(Fixtures.keys(&state, .function(3)) == [.files(.view(session: 1, .local,
                                                                      path: Array("/home/me/notes.txt".utf8),
                                                                      limit: 1 << 20))])
        _ = Update.update(&state, .files(.viewed(session: 1, path: Array("/home/me/notes.txt".utf8),
                                                 bytes: Array("line one\n\u{1B}]52;c;SGVsbG8=\u{07}two\n".utf8),
                                                 cut: true)))
        let text = Self.text(state)
        #expect(text.contains("/home/me/notes.txt") && text.contains("line one"))
        #expect(text.contains("␛]52;c;SGVsbG8=␇two"))
        #expect(text.contains("Only the first 1 MiB are shown."))
        Fixtures.keys(&state, .escape)
        #expect(Self.files(state)?.pager == nil && state.screen.kind == .files)
    }

    @Test func f11InASessionOpensItsServerInTheSessionsFolderAndComesBack() throws {
        var state = Fixtures.inSession()
        let target = try #require(state.session?.target)
        #expect(Fixtures.keys(&state, .function(11)) == [.files(.open(
            session: 1, server: target, knownHosts: state.settings.knownHosts, remoteStart: .sessionFolder,
            localStart: nil))])
        #expect(state.screen.kind == .files)
        #expect(Fixtures.keys(&state, .character("q")) == [.files(.close(session: 1))])
        #expect(state.screen.kind == .session)
        #expect(state.session?.target == target)
        #expect(Fixtures.keys(&state, .ctrl("o")).count == 1, "^O too")
    }

    @Test func f11WaitsForARunningCommand() {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "sleep 9")
        Fixtures.keys(&state, .enter)
        #expect(Fixtures.keys(&state, .function(11)).isEmpty)
        #expect(state.screen.kind == .session)
        #expect(state.notice?.contains("A command is running") == true)
    }

    @Test func aServerThatCannotBeReachedSaysWhyAndTheLocalPaneStillWorks() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("f"))
        _ = Update.update(&state, .files(.connectionFailed(session: 1, "web1 refused the connection.")))
        _ = Update.update(&state, .files(.listed(session: 1, .local, path: Array("/home/me".utf8),
                                                 entries: Self.localRows, select: nil)))
        #expect(Self.text(state).contains("web1 refused the connection."))
        #expect(Fixtures.keys(&state, .function(5)).isEmpty)
        #expect(Fixtures.keys(&state, .enter).count == 1, "the local pane opens src")
    }

    @Test func mCopiesTheLocalSelectionToEveryMarkedServerWithARowEach() throws {
        var state = Fixtures.loaded()
        let marked = state.serverList.entries.count
        #expect(marked >= 2)
        Fixtures.keys(&state, .character(" "), .character(" "), .up)
        Fixtures.keys(&state, .character("f"))
        let servers = try #require(Self.files(state)?.markedServers)
        #expect(servers.count == 2)
        _ = Update.update(&state, .files(.listed(session: 1, .local, path: Array("/home/me".utf8),
                                                 entries: Self.localRows, select: nil)))
        Fixtures.keys(&state, .down, .down, .down)
        #expect(Fixtures.keys(&state, .character("m")) == [.files(.copyToServers(
            session: 1, id: 1, servers: servers, sources: [Array("/home/me/notes.txt".utf8)], destination: [],
            knownHosts: state.settings.knownHosts, parallel: state.settings.fleetParallel))])
        let first = servers[0].name ?? ""
        #expect(Self.text(state).contains("notes.txt → the login folder on 2 servers — 0 of 2 done"))
        _ = Update.update(&state, .files(.serverCopied(session: 1, id: 1, index: 0, FilesServerCopy(
            server: first, status: "ok", lines: ["ok  /home/admin/notes.txt"]))))
        let text = Self.text(state)
        #expect(text.contains("1 of 2 done") && text.contains("ok  /home/admin/notes.txt"), "\(text)")
        // The last one lists the server's pane again (it received the files too).
        _ = Update.update(&state, .files(.listed(session: 1, .remote, path: Array("/srv".utf8), entries: [],
                                                 select: nil)))
        #expect(Update.update(&state, .files(.serverCopied(session: 1, id: 1, index: 1, FilesServerCopy(
            server: "x", status: "refused", lines: ["x refused the connection."]))))
            == [.files(.list(session: 1, .remote, path: Array("/srv".utf8), select: nil))])
        // With one server only there is nothing to copy to.
        Fixtures.keys(&state, .character("q"))
        state.fleet.marked = []
        Fixtures.keys(&state, .character("f"))
        #expect(Fixtures.keys(&state, .character("m")).isEmpty)
        #expect(state.notice?.contains("Mark two or more servers") == true)
    }

    @Test func pathsJoinAndSplitAsBytes() {
        #expect(FilePath.join([47], [97]) == [47, 97])
        #expect(FilePath.join(Array("/a".utf8), Array("b".utf8)) == Array("/a/b".utf8))
        #expect(FilePath.parent(Array("/a/b".utf8)) == Array("/a".utf8))
        #expect(FilePath.parent(Array("/a".utf8)) == [47])
        #expect(FilePath.parent([47]) == [47])
        #expect(FilePath.lastPart(Array("/srv/app/".utf8)) == Array("app".utf8))
        #expect(Self.row("x", mode: 0o4755).modeText == "-rwsr-xr-x")
        #expect(Self.row("d", .directory, mode: 0o1777).modeText == "drwxrwxrwt")
        #expect(FilesView.sizeText(9_999) == "9999" && FilesView.sizeText(10_240) == "10.0K")
    }
}

extension AppState {
    /// Changes the Files screen shown (tests).
    mutating func changeFiles(_ change: (inout FilesState) -> Void) {
        guard case .files(var files) = screen else { return }
        change(&files)
        show(.files(files))
    }
}
