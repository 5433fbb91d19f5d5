import Foundation
import Testing
import TestSupport

/// The interface that cannot start ends as any command does: one `essh: ` line, the status from the one table, the
/// terminal given back.
@Suite("essh TUI: a start that fails")
struct TUIStartFailureTests {
    @Test func aDatabaseItCannotUseEndsWithTheDatabaseStatusAndATerminalAsBefore() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        #expect(FileManager.default.createFile(atPath: dir.file("file"), contents: Data("x".utf8)))
        let essh = try EsshInTmux(knownHosts: .empty, environment: ["ESSH_DB": dir.file("file") + "/essh.db"],
                                  in: dir, width: 200)
        defer { essh.stop() }
        try essh.waitForExit(3)
        let screen = try essh.tmux.waitFor(text: "TTY-SANE").joined(separator: "\n")
        #expect(screen.contains("essh: \(dir.path)/file is not a folder; the database cannot go there"), "\(screen)")
        #expect(screen.contains("RESTORED=yes"), "\(screen)")
        #expect(!screen.contains("Usage:"))
    }
}
