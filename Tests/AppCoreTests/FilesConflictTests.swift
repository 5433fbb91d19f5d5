import Foundation
import Testing
import TUIKit
@testable import AppCore

/// F5 when a name being copied is in the other pane's folder already (issue 27): a question per name on the overlay
/// stack — overwrite, skip, rename to a free name, overwrite all, skip all; Esc copies nothing — before any copy
/// starts, both ways; a folder onto a folder merges unasked, and what is no file is never overwritten. And the names a
/// listing left out because they are no file names, said once.
@Suite struct FilesConflictTests {
    typealias T = FilesUpdateTests

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// The Files screen with the server's folder /srv listing `remote`, the local pane's marks on `marked`.
    static func opened(remote: [FileRow], marked: [String] = []) -> AppState {
        var state = T.opened(size: Size(width: 100, height: 30))
        _ = Update.update(&state, .files(.listed(session: 1, .remote, path: bytes("/srv"), entries: remote,
                                                 select: nil)))
        for name in marked {
            let index = T.files(state)?.local.rows.firstIndex { $0.name == bytes(name) } ?? 0
            state.changeFiles { $0.local.list.selected = index }
            Fixtures.keys(&state, .character(" "))
        }
        return state
    }

    static func question(_ state: AppState) -> FilesConflictQuestion? { state.overlays.filesConflict }

    static func upload(_ names: [String], newName: String? = nil) -> Effect {
        .files(.transfer(session: 1, id: 1, FilesTransferRequest(
            from: .local, sources: names.map { bytes("/home/me/" + $0) }, destination: bytes("/srv"), resume: false,
            newName: newName.map(bytes))))
    }

    @Test func f5OntoANameThatIsThereAsksBeforeCopyingAnything() throws {
        var state = Self.opened(remote: [T.row("notes.txt", size: 4096), T.row("logs", .directory)])
        Fixtures.keys(&state, .end)
        #expect(Fixtures.keys(&state, .function(5)).isEmpty, "nothing copied before the answer")
        let question = try #require(Self.question(state))
        #expect(question.asked?.source.name == Self.bytes("notes.txt"))
        #expect(T.files(state)?.queue.items.isEmpty == true)
        let text = T.text(state)
        #expect(text.contains("notes.txt is in web1:/srv already."), "\(text)")
        #expect(text.contains("There:  4096 bytes") && text.contains("Copied: 12 bytes"), "\(text)")
        #expect(text.contains("copy it as notes.txt.1?"), "\(text)")
        #expect(text.contains("[ Overwrite ]") && text.contains("[ Skip all ]"), "\(text)")
        // The key bar is the question's table.
        let keyBar = Fixtures.screen(state)[state.size.height - 1]
        #expect(keyBar.contains("o Overwrite") && keyBar.contains("Esc Cancel"), "\(keyBar)")
        // o overwrites: the copy goes as it would have.
        #expect(Fixtures.keys(&state, .character("o")) == [Self.upload(["notes.txt"])])
        #expect(Self.question(state) == nil)
        #expect(T.files(state)?.queue.items.map(\.state) == [.running])
    }

    @Test func noNameThereAsksNothing() {
        var state = Self.opened(remote: [T.row("other.txt")], marked: ["a.sh", "notes.txt"])
        #expect(Fixtures.keys(&state, .function(5)) == [Self.upload(["a.sh", "notes.txt"])])
        #expect(Self.question(state) == nil)
        #expect(state.notice == nil)
    }

    @Test func skipLeavesItOutAndSaysSo() {
        var state = Self.opened(remote: [T.row("notes.txt")], marked: ["a.sh", "notes.txt"])
        #expect(Fixtures.keys(&state, .function(5)).isEmpty)
        #expect(Fixtures.keys(&state, .character("s")) == [Self.upload(["a.sh"])])
        #expect(state.notice == "Skipped 1 file that is in web1:/srv already.")
        // Alone, a skip copies nothing.
        var alone = Self.opened(remote: [T.row("notes.txt")])
        Fixtures.keys(&alone, .end, .function(5))
        #expect(Fixtures.keys(&alone, .enter).isEmpty, "Enter on the default button skips")
        #expect(alone.notice == "Nothing was copied. Skipped 1 file that is in web1:/srv already.")
        #expect(T.files(alone)?.queue.items.isEmpty == true)
    }

    @Test func renameCopiesUnderTheFirstFreeName() throws {
        var state = Self.opened(remote: [T.row("notes.txt"), T.row("notes.txt.1"), T.row("notes.txt.3")])
        Fixtures.keys(&state, .end, .function(5))
        #expect(T.text(state).contains("copy it as notes.txt.2?"))
        let effects = Fixtures.keys(&state, .character("r"))
        #expect(effects == [Self.upload(["notes.txt"], newName: "notes.txt.2")])
        let request = try #require(T.files(state)?.queue.items.first?.request)
        #expect(request.target == Self.bytes("/srv/notes.txt.2"), "the engine is given the new name")
        #expect(T.files(state)?.queue.items.first?.label == "↑ notes.txt as notes.txt.2 → web1:/srv")
        // The buttons reach it too: → twice from Skip, Enter.
        var buttons = Self.opened(remote: [T.row("notes.txt")])
        Fixtures.keys(&buttons, .end, .function(5), .right)
        #expect(Fixtures.keys(&buttons, .enter) == [Self.upload(["notes.txt"], newName: "notes.txt.1")])
    }

    @Test func aRenameAvoidsTheNamesThisCopyWritesToo() {
        // a.sh.1 is there and also copied; a.sh renamed must not take it, nor a name another rename took.
        let taken: Set<[UInt8]> = [Self.bytes("a.sh"), Self.bytes("a.sh.1")]
        #expect(FilesConflictQuestion.freeName(Self.bytes("a.sh"), taken: taken) == Self.bytes("a.sh.2"))
        var question = FilesConflictQuestion(
            session: 1, from: .local, sourceFolder: Self.bytes("/l"),
            chosen: [T.row("a"), T.row("a.1"), T.row("b")], destination: Self.bytes("/r"),
            existing: [T.row("a"), T.row("a.1"), T.row("a.2")])
        question.answer(.rename)
        question.answer(.rename)
        #expect(question.requests.map(\.newName) == [nil, Self.bytes("a.3"), Self.bytes("a.1.1")])
    }

    @Test func overwriteAllAndSkipAllAnswerEveryNameLeftInOneQuestion() throws {
        // src merges into its folder, big.iso is a folder there (never overwritten), a.sh and notes.txt are asked.
        let remote = [T.row("src", .directory), T.row("a.sh"), T.row("big.iso", .directory), T.row("notes.txt")]
        let all = ["src", "a.sh", "big.iso", "notes.txt"]
        var state = Self.opened(remote: remote, marked: all)
        Fixtures.keys(&state, .function(5))
        #expect(Self.question(state)?.total == 2)
        #expect(T.text(state).contains("Already there (1 of 2)"))
        #expect(Fixtures.keys(&state, .character("O")) == [Self.upload(["src", "a.sh", "notes.txt"])])
        #expect(state.notice == "“big.iso” is a folder in web1:/srv: it is not overwritten, and not copied.")
        #expect(T.files(state)?.local.marks.isEmpty == true)

        var skipping = Self.opened(remote: remote, marked: all)
        Fixtures.keys(&skipping, .function(5))
        #expect(Fixtures.keys(&skipping, .character("S")) == [Self.upload(["src"])])
        #expect(skipping.notice == "Skipped 2 files that are in web1:/srv already. “big.iso” is a folder in "
                + "web1:/srv: it is not overwritten, and not copied.")

        // One at a time: a.sh renamed, then notes.txt overwritten: two copies, the second waiting.
        var mixed = Self.opened(remote: remote, marked: all)
        Fixtures.keys(&mixed, .function(5))
        #expect(Fixtures.keys(&mixed, .character("r")).isEmpty, "the second name is asked")
        #expect(T.text(mixed).contains("Already there (2 of 2)"))
        #expect(T.text(mixed).contains("notes.txt is in web1:/srv already."))
        #expect(Fixtures.keys(&mixed, .character("o")) == [Self.upload(["src", "notes.txt"])])
        let items = try #require(T.files(mixed)?.queue.items)
        #expect(items.map(\.state) == [.running, .waiting])
        #expect(items.last?.request == FilesTransferRequest(from: .local, sources: [Self.bytes("/home/me/a.sh")],
                                                            destination: Self.bytes("/srv"), resume: false,
                                                            newName: Self.bytes("a.sh.1")))
    }

    @Test func aLinkOrADeviceWhereTheFileWouldGoIsNeverOverwritten() {
        var state = Self.opened(remote: [T.row("notes.txt", .symlink), T.row("a.sh", .other)],
                                marked: ["a.sh", "notes.txt"])
        #expect(Fixtures.keys(&state, .function(5)).isEmpty)
        #expect(Self.question(state) == nil, "nothing to ask")
        #expect(state.notice == "Nothing was copied. 2 names are taken in web1:/srv by what is no regular file "
                + "(“a.sh”, “notes.txt”): they are not overwritten, and not copied.")
        var one = Self.opened(remote: [T.row("notes.txt", .symlink)])
        Fixtures.keys(&one, .end, .function(5))
        #expect(one.notice == "Nothing was copied. “notes.txt” is a link in web1:/srv: it is not overwritten, "
                + "and not copied.")
    }

    @Test func escCancelsTheWholeCopy() {
        var state = Self.opened(remote: [T.row("a.sh"), T.row("notes.txt")], marked: ["a.sh", "big.iso", "notes.txt"])
        Fixtures.keys(&state, .function(5))
        Fixtures.keys(&state, .character("o"))
        #expect(Fixtures.keys(&state, .escape).isEmpty)
        #expect(Self.question(state) == nil)
        #expect(T.files(state)?.queue.items.isEmpty == true, "not even the names already answered")
        #expect(state.notice == "Copy cancelled: nothing was copied.")
        #expect(T.files(state)?.local.marks.count == 3, "the marks stay for another try")
        #expect(state.screen.kind == .files, "Esc closed the question, not the screen")
    }

    @Test func aDownloadAsksAboutThisMachinesFolder() {
        var state = Self.opened(remote: [T.row("notes.txt"), T.row("logs", .directory)])
        Fixtures.keys(&state, .tab, .end)
        #expect(Fixtures.keys(&state, .function(5)).isEmpty)
        #expect(T.text(state).contains("notes.txt is in /home/me already."))
        #expect(Fixtures.keys(&state, .character("o")) == [.files(.transfer(session: 1, id: 1, FilesTransferRequest(
            from: .remote, sources: [Self.bytes("/srv/notes.txt")], destination: Self.bytes("/home/me"),
            resume: false)))])
    }

    @Test func theQuestionClosesWithTheScreen() {
        var state = Self.opened(remote: [T.row("notes.txt")])
        Fixtures.keys(&state, .end, .function(5))
        state.show(.servers)
        #expect(Self.question(state) == nil)
    }

    @Test func namesAListingLeftOutAreSaidOnce() {
        var state = T.opened()
        _ = Update.update(&state, .files(.listed(session: 1, .remote, path: Self.bytes("/srv"), entries: [],
                                                 select: nil, omitted: [Self.bytes("../x"), Self.bytes("a/b")])))
        #expect(state.notice == "web1 listed 2 names that are not file names (“../x”, “a/b”); they are not shown.")
        _ = Update.update(&state, .files(.listed(session: 1, .remote, path: Self.bytes("/srv"), entries: [],
                                                 select: nil, omitted: [Self.bytes("a\u{1B}[2J/b")])))
        #expect(state.notice == "web1 listed 1 name that is no file name (“a␛[2J/b”); it is not shown.")
    }
}
