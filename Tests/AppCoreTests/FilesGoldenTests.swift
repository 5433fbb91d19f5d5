import Foundation
import Testing
import TestSupport
import TUIKit
import Transfer
@testable import AppCore

/// The Files screen as whole screens compared with reviewed files in Golden/ (ESSH_UPDATE_GOLDEN=1 rewrites them):
/// both panes at 80 columns (name, size, time) and 140 (mode and owner too), the queue with a copy running, one
/// waiting and one that failed, the delete question and the pager.
@Suite("Files screen: golden")
struct FilesGoldenTests {
    let directory = Golden.directory(besides: #filePath)

    static func withQueue(size: Size) -> AppState {
        var state = FilesUpdateTests.opened(size: size)
        Fixtures.keys(&state, .down, .down, .function(5))
        Fixtures.keys(&state, .down, .function(5))
        Fixtures.keys(&state, .tab, .down, .function(5))
        _ = Update.update(&state, .files(.transfer(session: 1, id: 1, .progress(TransferProgress(
            file: Array("/srv/big.iso".utf8), fileDone: 100_000_000, fileSize: 734_003_200, totalDone: 100_000_000,
            totalBytes: 734_003_200, filesDone: 0, filesTotal: 1, bytesPerSecond: 48_500_000, secondsLeft: 13.1)))))
        return state
    }

    @Test func filesAt80x24() throws {
        let state = Self.withQueue(size: Size(width: 80, height: 24))
        try Golden.check(Fixtures.screen(state), named: "files-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "files-80x24.style", in: directory)
    }

    @Test func filesAt140x30WithAFailedCopy() throws {
        var state = Self.withQueue(size: Size(width: 140, height: 30))
        _ = Update.update(&state, .files(.transfer(session: 1, id: 1, .fileFinished(
            name: Array("/srv/big.iso".utf8), problem: "no space left on web1 (1,048,576 bytes free)"))))
        _ = Update.update(&state, .files(.transfer(session: 1, id: 1, .finished(.incomplete(failed: 1, of: 1)))))
        try Golden.check(Fixtures.screen(state), named: "files-140x30", in: directory)
    }

    @Test func deleteQuestionAndPagerAt80x24() throws {
        var state = FilesUpdateTests.opened(size: Size(width: 80, height: 24))
        Fixtures.keys(&state, .function(8))
        try Golden.check(Fixtures.screen(state), named: "files-delete-80x24", in: directory)
        Fixtures.keys(&state, .escape, .end, .function(3))
        _ = Update.update(&state, .files(.viewed(session: 1, path: Array("/home/me/notes.txt".utf8),
                                                 bytes: Array("# notes\n\tindented\u{1B}[1mbold\u{1B}[0m\nend\n".utf8),
                                                 cut: false)))
        try Golden.check(Fixtures.screen(state), named: "files-pager-80x24", in: directory)
    }
}
