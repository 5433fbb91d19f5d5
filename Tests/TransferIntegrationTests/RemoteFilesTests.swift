import Foundation
import SSH
import Testing
import TestSupport
import Transfer

/// The Files screen's operations on the server.
@Suite(.serialized) struct RemoteFilesTests {
    @Test func listingInfoAndTheFolderOperations() throws {
        let sandbox = try RemoteSandbox()
        let r = sandbox.remote
        #expect(try r.home() == Array(sandbox.servers.home.utf8))
        _ = try sandbox.session.capture("cd \(Basics_quote(sandbox.folder)) && printf 12345 > f && ln -s f l "
                                        + "&& mkfifo p && mkdir -p d/e && touch d/e/x \"$(printf 'n\\377')\"")
        let entries = try r.list(sandbox.folder).sorted { $0.name.lexicographicallyPrecedes($1.name) }
        #expect(entries.map(\.name) == [Array("d".utf8), Array("f".utf8), Array("l".utf8), [0x6E, 0xFF],
                                        Array("p".utf8)])
        #expect(entries.map(\.info.kind) == [.directory, .regular, .symlink, .regular, .fifo])
        #expect(entries.allSatisfy { $0.owner == "essh-test" })
        #expect(entries[2].linkTarget == Array("f".utf8))
        #expect(entries[1].info.size == 5)
        #expect(try r.info(sandbox.remotePath("missing")) == nil)
        #expect(try r.info(sandbox.remotePath("l"))?.kind == .regular)
        #expect(try r.info(sandbox.remotePath("l"), followLinks: false)?.kind == .symlink)

        try r.makeDirectory(sandbox.remotePath("new"), mode: 0o700)
        #expect(try r.info(sandbox.remotePath("new"))?.mode == 0o700)
        try r.changeMode(sandbox.remotePath("f"), to: 0o600)
        #expect(try r.info(sandbox.remotePath("f"))?.mode == 0o600)
        do {
            try r.rename(sandbox.remotePath("f"), to: sandbox.remotePath("d"))
            Issue.record("renamed onto an existing name")
        } catch {
            #expect(error.kind == .remoteFile && error.message.contains("already exists"))
        }
        try r.rename(sandbox.remotePath("f"), to: sandbox.remotePath("g"))
        #expect(try r.readPrefix(sandbox.remotePath("g"), limit: 3) == Array("123".utf8))
        #expect(try r.readPrefix(sandbox.remotePath("g"), limit: 100) == Array("12345".utf8))
        let started = Date()
        do {
            _ = try r.readPrefix(sandbox.remotePath("p"), limit: 100)
            Issue.record("read a FIFO")
        } catch {
            #expect(error.message.contains("is a FIFO, not a regular file"))
        }
        #expect(Date().timeIntervalSince(started) < 5)
        do {
            try r.remove(sandbox.remotePath("d"), recursive: false)
            Issue.record("removed a full folder")
        } catch {
            #expect(error.kind == .remoteFile)
        }
        try r.remove(sandbox.remotePath("d"), recursive: true)
        #expect(try r.info(sandbox.remotePath("d")) == nil)
        #expect(try r.realPath(sandbox.folder + Array("/new/..".utf8)) == sandbox.folder)
        // Sentences name the server as the caller named it.
        do {
            try r.changeMode(sandbox.remotePath("missing"), to: 0o600)
            Issue.record("changed a missing file")
        } catch {
            #expect(error == TransferError(.remoteFile, "testhost: \(PathBytes.shown(sandbox.remotePath("missing"))): "
                                           + "no such file or folder."))
        }
    }
}
