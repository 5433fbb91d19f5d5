import Foundation
import Testing
import TestSupport

/// `essh cp` when something is wrong: the command line (64, with the usage), a missing source (2, nothing copied),
/// permission denied (1, the rest copied), scp's destination rules, and the port options split between `cp` (-P) and
/// the ssh-like commands (-p).
@Suite struct CopyErrorTests {
    /// Command lines that cannot be copied: 64, a sentence saying how to write it, nothing connected to.
    @Test(arguments: [
        (["cp", "onlyone"], "Give where to copy to"),
        (["cp", "a", "b"], "Neither side is on a server"),
        (["cp", "web1:a", "web2:b"], "Both sides are on servers"),
        (["cp", "web1:a", "b", "c"], "more than one side"),
        (["cp", "--parallel", "9", "a", "web1:"], "--parallel 9"),
        (["cp", "--limit", "fast", "a", "web1:"], "--limit fast"),
        (["cp", "--limit", "0", "a", "web1:"], "at least 1 byte"),
        (["cp", "-P", "0", "a", "web1:"], "-P 0: a port is a number from 1 to 65535"),
        (["cp", "-P", "22", "/etc/hosts", "web1:2222:x"], "DEST says port 2222 but -P says 22"),
        (["cp", "--timeout", "5", "a", "web1:"], "--timeout is for a fleet copy"),
        (["cp", "--tag", "web", "a", "b"], "write the servers' side as :PATH"),
        (["cp", ":/etc/hosts", "."], "needs its servers"),
        (["exec", "-P", "22", "web1", "true"], "-P is an OpenSSH option eSSH does not have"),
        (["exec", "-p", "0", "web1", "true"], "-p 0: a port is a number from 1 to 65535"),
    ] as [([String], String)])
    func aWrongCommandLineIsUsage(args: [String], words: String) throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path])
        #expect(r.status == 64, "\(args): \(r.err)")
        #expect(r.err.contains(words), "\(args): \(r.err)")
        #expect(r.out.isEmpty)
    }

    /// A local source that does not exist: 2, said by name, nothing copied (the other source either), before any
    /// connection (the server here does not exist).
    @Test func aMissingLocalSourceIsBadInputAndNothingIsCopied() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        try CopyFixture.write(f.dir.file("here"), Array("x".utf8))
        let r = try f.cp([f.dir.file("here"), f.dir.file("not-here"), "\(f.server):\(f.remote)/"])
        #expect(r.status == 2, "\(r.err)")
        #expect(r.err.contains("not-here") && r.err.contains("nothing was copied"), "\(r.err)")
        #expect(CopyFixture.names(f.remote).isEmpty)
    }

    /// A remote source that does not exist, and one that cannot be read: each said, the rest copied, status 1.
    @Test func aMissingOrUnreadableRemoteSourceFailsThatFileOnly() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        try CopyFixture.write(f.remote + "/ok", Array("ok".utf8))
        try CopyFixture.write(f.remote + "/secret", Array("s".utf8), mode: 0o600)  // root's: the test user cannot read it
        try f.own(f.remote + "/ok")
        let r = try f.cp(["\(f.server):\(f.remote)/missing", "\(f.server):\(f.remote)/secret", "\(f.server):\(f.remote)/ok",
                          f.dir.path + "/"])
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.contains("missing") && r.err.contains("secret"), "\(r.err)")
        #expect(r.err.lowercased().contains("permission denied"), "\(r.err)")
        #expect(CopyFixture.holds(f.dir.file("ok"), Array("ok".utf8)))
        #expect(CopyFixture.stat(f.dir.file("secret")) == nil && CopyFixture.stat(f.dir.file("missing")) == nil)
    }

    /// A folder the test user may not write to: the upload fails with the reason and leaves nothing there.
    @Test func permissionDeniedOnTheServerIsSaid() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        let closed = f.remote + "/closed"
        try FileManager.default.createDirectory(atPath: closed, withIntermediateDirectories: false)
        chmod(closed, 0o755)  // root's
        try CopyFixture.write(f.dir.file("f"), Array("f".utf8))
        let r = try f.cp([f.dir.file("f"), "\(f.server):\(closed)/"])
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.lowercased().contains("permission denied"), "\(r.err)")
        #expect(CopyFixture.names(closed).isEmpty)
    }

    /// A server's disk that fills up (a 1 MiB tmpfs): that file fails saying how much room was left, no partial stays,
    /// and the small file after it still arrives (one file at a time: in parallel the small one could meet the full
    /// disk too).
    @Test func aFullDiskOnTheServerIsSaidAndTheRestGoesOn() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        let disk = try SmallTmpfs()
        defer { disk.remove() }
        try CopyFixture.write(f.dir.file("big"), CopyFixture.random(3 << 20, seed: 21))
        try CopyFixture.write(f.dir.file("small"), Array("small".utf8))
        let r = try f.cp(["--parallel", "1", f.dir.file("big"), f.dir.file("small"), "\(f.server):\(disk.path)/"])
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.lowercased().contains("no space left") && r.err.contains("big"), "\(r.err)")
        #expect(CopyFixture.names(disk.path).map { String(decoding: $0, as: UTF8.self) }.sorted() == ["small"],
                "\(CopyFixture.names(disk.path).map { String(decoding: $0, as: UTF8.self) })")
    }

    /// scp's rules: an existing folder DEST receives the file; a missing DEST is the new name; several sources onto
    /// a file, a missing folder with a trailing slash, and a folder without -r are refused.
    @Test func destinationRulesAreScps() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        try CopyFixture.write(f.dir.file("a"), Array("a".utf8))
        try CopyFixture.write(f.dir.file("b"), Array("b".utf8))
        try FileManager.default.createDirectory(atPath: f.remote + "/into", withIntermediateDirectories: false)
        try f.own(f.remote + "/into")
        #expect(try f.cp([f.dir.file("a"), "\(f.server):\(f.remote)/into"]).status == 0)
        #expect(CopyFixture.holds(f.remote + "/into/a", Array("a".utf8)), "an existing folder receives it")
        #expect(try f.cp([f.dir.file("a"), "\(f.server):\(f.remote)/renamed"]).status == 0)
        #expect(CopyFixture.holds(f.remote + "/renamed", Array("a".utf8)), "a missing DEST is the new name")
        let onto = try f.cp([f.dir.file("a"), f.dir.file("b"), "\(f.server):\(f.remote)/renamed"])
        #expect(onto.status == 64, "several sources onto a file: \(onto.err)")
        #expect(CopyFixture.holds(f.remote + "/renamed", Array("a".utf8)), "the file is untouched")
        let slash = try f.cp([f.dir.file("a"), "\(f.server):\(f.remote)/nofolder/"])
        #expect(slash.status != 0 && slash.err.contains("nofolder"), "\(slash.err)")
        let folder = f.dir.file("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let noR = try f.cp([folder, f.dir.file("b"), "\(f.server):\(f.remote)/into"])
        #expect(noR.status == 1 && noR.err.contains("-r"), "a folder needs -r: \(noR.err)")
        #expect(CopyFixture.holds(f.remote + "/into/b", Array("b".utf8)), "the file beside it still arrives")
        #expect(CopyFixture.stat(f.remote + "/into/folder") == nil)
    }

    /// Into a pipe there is no progress line and nothing on stdout; a server that refuses is 255.
    @Test func quietIntoAPipeAndAClosedPortIsAConnectionFailure() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        try CopyFixture.write(f.dir.file("p"), CopyFixture.random(1 << 20))
        let r = try f.cp([f.dir.file("p"), "\(f.server):\(f.remote)/"])
        #expect(r.status == 0 && r.out.isEmpty && r.err.isEmpty, "\(r.out) \(r.err)")
        let port = try LoopbackListener.closedPort()
        let refused = try Binary.runEssh(["cp", "--known-hosts", f.s.knownHosts, "-P", "\(port)", f.dir.file("p"),
                                          "\(f.server):"], environment: f.environment)
        #expect(refused.status == 255, "\(refused.err)")
        #expect(refused.err.hasPrefix("essh: ") && !refused.err.contains("Usage"), "\(refused.err)")
    }
}
