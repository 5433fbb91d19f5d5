import Foundation
import SSH
import Testing
import TestSupport
import Transfer

/// Servers unlike the harness's main one (ExtraSSHD's sftp parameter), and leftovers of earlier runs.
@Suite(.serialized) struct ServerVariantsTests {
    func session(_ sshd: ExtraSSHD, _ s: TestServers) throws -> SSHSession {
        let known = try TempDir()
        defer { known.cleanup() }
        var o = ConnectOptions(host: sshd.host, port: sshd.port, user: s.user, knownHostsFile: known.file("known_hosts"))
        o.globalKnownHostsFiles = []
        o.identityFiles = [s.key("id_ed25519")]
        o.useAgent = false
        o.connectTimeout = 5
        o.hostKeyPolicy = .acceptNew
        return try SSHSession.connect(o)
    }

    @Test func withoutPosixRenameAnExistingFileIsReplacedAndTheOutcomeSaysNotAtomically() throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s, sftp: "internal-sftp -P posix-rename")
        defer { sshd.stop() }
        let session = try session(sshd, s)
        let remote = try RemoteFiles(session: session, host: "old")
        let folder = Array("\(s.home)/essh-norename-\(UUID().uuidString)".utf8)
        try remote.makeDirectory(folder)
        defer { try? remote.remove(folder, recursive: true) }
        let local = try TempDir()
        defer { local.cleanup() }
        let source = Array(local.file("f").utf8)
        try writeLocal(source, Array("new".utf8))
        let destination = folder + Array("/f".utf8)
        let fresh = Transfer.run(request(.upload, [source], destination), remote: remote) { _ in }
        #expect(fresh.allArrived && fresh.outcomes.first?.replacedAtomically == true)
        try writeLocal(source, Array("newer".utf8))
        let again = Transfer.run(request(.upload, [source], destination), remote: remote) { _ in }
        #expect(again.allArrived, "\(again)")
        #expect(again.outcomes.first?.replacedAtomically == false)
        #expect(try remote.readPrefix(destination, limit: 100) == Array("newer".utf8))
    }

    @Test func aServerWithoutSFTPSaysSo() throws {
        let s = try TestServers.require()
        let sshd = try ExtraSSHD(servers: s, sftp: nil)
        defer { sshd.stop() }
        let session = try session(sshd, s)
        do {
            _ = try RemoteFiles(session: session, host: "bare")
            Issue.record("opened")
        } catch {
            #expect(error.message == "127.0.0.1 offers no SFTP file service (its sshd has no sftp subsystem).")
        }
        // The session still runs commands.
        #expect(try session.capture("echo ok").stdout == Array("ok\n".utf8))
    }

    @Test func aStalePartialOfAnotherSourceGoesOnceTheCopyIsInPlace() throws {
        let sandbox = try RemoteSandbox()
        let stale = sandbox.remotePath(".f.essh-0badf00d.part")
        let other = sandbox.remotePath(".g.essh-0badf00d.part")
        _ = try sandbox.session.capture("echo old > \(Basics_quote(stale)); echo keep > \(Basics_quote(other))")
        let source = sandbox.localPath("f")
        try writeLocal(source, Array("data".utf8))
        let s = Transfer.run(request(.upload, [source], sandbox.folder), remote: sandbox.remote) { _ in }
        #expect(s.allArrived)
        let names = Set(try sandbox.remote.list(sandbox.folder).map { String(decoding: $0.name, as: UTF8.self) })
        #expect(names == ["f", ".g.essh-0badf00d.part"])
    }
}
