import Foundation
import Testing
import TestSupport

/// `essh cp` up and back down against the real sshd, byte for byte: empty, one byte, a few MB of random bytes, names
/// with a space, a newline, bytes that are not UTF-8 and a leading dash; a tree under `-r -p` with its modes and
/// times; the same through a jump host; a FIFO refused while the rest arrives.
@Suite(.serialized) struct CopyRoundTripTests {
    /// Single files up, one `essh cp` each, then down again into another folder: each arrives identical, and no
    /// temporary name is left behind.
    @Test func singleFilesGoUpAndComeBackIdentical() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        let files: [(String, [UInt8])] = [
            ("empty", []), ("one", [0x7A]), ("random.bin", CopyFixture.random(3 << 20)),
            ("with space", Array("a b\n".utf8)), ("new\nline", Array("nl".utf8)), ("-dash", Array("dash".utf8)),
        ]
        for (name, bytes) in files { try CopyFixture.write(f.dir.file(name), bytes) }
        for (name, _) in files {
            let up = try f.cp(["--", f.dir.file(name), "\(f.server):\(f.remote)/"])
            #expect(up.status == 0, "\(name): \(up.err)")
            #expect(up.out.isEmpty && up.err.isEmpty, "nothing said into a pipe: \(up.out) \(up.err)")
        }
        for (name, bytes) in files { #expect(CopyFixture.holds(f.remote + "/" + name, bytes), "\(name) up") }
        #expect(CopyFixture.names(f.remote).count == files.count, "no partial left: \(CopyFixture.names(f.remote))")
        let back = f.dir.file("back")
        try FileManager.default.createDirectory(atPath: back, withIntermediateDirectories: false)
        for (name, _) in files {
            let down = try f.cp(["\(f.server):\(f.remote)/\(name)", back])
            #expect(down.status == 0, "\(name): \(down.err)")
        }
        for (name, bytes) in files { #expect(CopyFixture.holds(back + "/" + name, bytes), "\(name) down") }
        // Several sources at once into a folder, down.
        let many = f.dir.file("many")
        try FileManager.default.createDirectory(atPath: many, withIntermediateDirectories: false)
        let down = try f.cp(["\(f.server):\(f.remote)/one", "\(f.server):\(f.remote)/empty", many])
        #expect(down.status == 0, "\(down.err)")
        #expect(CopyFixture.holds(many + "/one", [0x7A]) && CopyFixture.holds(many + "/empty", []))
    }

    /// A name that is not UTF-8, given on the command line, arrives under those bytes (Swift's own arguments would
    /// have replaced them), both ways; --json shows it with U+FFFD.
    @Test func aNameThatIsNotUTF8KeepsItsBytes() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        let name: [UInt8] = Array("bad".utf8) + [0xFF, 0xFE] + Array(".txt".utf8)
        let local = Array(f.dir.path.utf8) + [UInt8(ascii: "/")] + name
        let fd = (local + [0]).withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) }
        }
        #expect(write(fd, "odd", 3) == 3)
        close(fd)
        let up = try f.cpThroughShell("\"$@\" --json \"\(f.dir.path)/$(printf 'bad\\377\\376.txt')\" '\(f.server):\(f.remote)/'")
        #expect(up.status == 0, "\(up.err)")
        #expect(CopyFixture.holds(Array(f.remote.utf8) + [UInt8(ascii: "/")] + name, Array("odd".utf8)))
        let line = try #require(CopyFixture.jsonLines(up).first, "\(up.out)")
        #expect((line["source"] as? String)?.hasSuffix("bad\u{FFFD}\u{FFFD}.txt") == true, "\(line)")
        #expect(line["status"] as? String == "copied" && line["bytes"] as? Int == 3, "\(line)")
        let back = f.dir.file("back")
        try FileManager.default.createDirectory(atPath: back, withIntermediateDirectories: false)
        let down = try f.cpThroughShell("\"$@\" '\(f.server):\(f.remote)/'\"$(printf 'bad\\377\\376.txt')\" '\(back)'")
        #expect(down.status == 0, "\(down.err)")
        #expect(CopyFixture.holds(Array(back.utf8) + [UInt8(ascii: "/")] + name, Array("odd".utf8)))
    }

    /// A tree under -r -p: every file identical, folders made, modes and modification times kept (whole seconds),
    /// up and back down; a symlink inside is made again as a link.
    @Test func aTreeKeepsModesAndTimesBothWays() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        let tree = f.dir.file("tree")
        try FileManager.default.createDirectory(atPath: tree + "/sub/deeper", withIntermediateDirectories: true)
        let files: [(String, [UInt8], mode_t, Int)] = [
            ("a.txt", Array("alpha\n".utf8), 0o640, 1_000_000_000),
            ("run.sh", Array("#!/bin/sh\n".utf8), 0o751, 1_200_000_000),
            ("sub/b.bin", CopyFixture.random(200_000, seed: 7), 0o600, 1_300_000_000),
            ("sub/deeper/c", [], 0o644, 1_400_000_000),
            ("sub/with space\nand newline", Array("x".utf8), 0o604, 1_500_000_000),
        ]
        for (path, bytes, mode, time) in files { try CopyFixture.write(tree + "/" + path, bytes, mode: mode, modified: time) }
        #expect(symlink("a.txt", tree + "/link") == 0)
        chmod(tree + "/sub", 0o750)
        let up = try f.cp(["-r", "-p", tree, "\(f.server):\(f.remote)/"])
        #expect(up.status == 0, "\(up.err)")
        let back = f.dir.file("back")
        try FileManager.default.createDirectory(atPath: back, withIntermediateDirectories: false)
        let down = try f.cp(["-rp", "\(f.server):\(f.remote)/tree", back])
        #expect(down.status == 0, "\(down.err)")
        for root in [f.remote + "/tree", back + "/tree"] {
            for (path, bytes, mode, time) in files {
                #expect(CopyFixture.holds(root + "/" + path, bytes), "\(root)/\(path)")
                let st = CopyFixture.stat(root + "/" + path)
                #expect(st?.mode == mode && st?.modified == time, "\(root)/\(path): \(String(describing: st))")
            }
            #expect(CopyFixture.stat(root + "/sub")?.mode == 0o750, "\(root)/sub")
            #expect(CopyFixture.stat(root + "/link")?.kind == S_IFLNK, "\(root)/link is a link")
            var target = [CChar](repeating: 0, count: 64)
            let n = readlink(root + "/link", &target, 63)
            #expect(n == 5 && String(cString: target) == "a.txt", "\(root)/link")
        }
    }

    /// Through a jump host (b1 → t1): t1 is reachable only from b1, so a file arriving proves the route.
    @Test func aCopyGoesThroughAJumpHost() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        let s = f.s
        let known = f.dir.file("known_hosts")
        try FileManager.default.copyItem(atPath: s.jump.knownHosts, toPath: known)
        let add = try Binary.runEssh(["servers", "add", "b1", "--host", s.jump.b1.host, "--port", "\(s.jump.b1.port)",
                                      "--user", s.user, "--key", s.key("id_ed25519")],
                                     environment: f.environment.merging(["ESSH_KNOWN_HOSTS": known]) { $1 })
        #expect(add.status == 0, "\(add.err)")
        let bytes = CopyFixture.random(1 << 20, seed: 3)
        try CopyFixture.write(f.dir.file("via"), bytes)
        let t1 = "\(s.user)@\(s.jump.t1.host)"
        let connection = ["--known-hosts", known, "-i", s.key("id_ed25519"), "-J", "b1", "-P", "\(s.jump.t1.port)"]
        let up = try Binary.runEssh(["cp"] + connection + [f.dir.file("via"), "\(t1):\(f.remote)/via"],
                                    environment: f.environment)
        #expect(up.status == 0, "\(up.err)")
        #expect(CopyFixture.holds(f.remote + "/via", bytes))
        let down = try Binary.runEssh(["cp", "-Jb1"] + connection.filter { $0 != "-J" && $0 != "b1" }
                                      + ["\(t1):\(f.remote)/via", f.dir.file("via-back")], environment: f.environment)
        #expect(down.status == 0, "\(down.err)")
        #expect(CopyFixture.holds(f.dir.file("via-back"), bytes))
    }

    /// A FIFO among the sources is refused with a sentence; the other files arrive; the status is 1.
    @Test func aFIFOIsRefusedAndTheRestArrives() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        let tree = f.dir.file("t")
        try FileManager.default.createDirectory(atPath: tree, withIntermediateDirectories: false)
        try CopyFixture.write(tree + "/a", Array("a".utf8))
        try CopyFixture.write(tree + "/z", Array("z".utf8))
        #expect(mkfifo(tree + "/pipe", 0o644) == 0)
        let up = try f.cp(["-r", tree, "\(f.server):\(f.remote)/"])
        #expect(up.status == 1, "\(up.err)")
        #expect(up.err.contains("pipe") && up.err.contains("not a regular file"), "\(up.err)")
        #expect(CopyFixture.holds(f.remote + "/t/a", Array("a".utf8)) && CopyFixture.holds(f.remote + "/t/z", Array("z".utf8)))
        #expect(CopyFixture.stat(f.remote + "/t/pipe") == nil)
        // A FIFO on the server, named as a source: refused too, and the session still copies the file after it.
        #expect(mkfifo(f.remote + "/rpipe", 0o644) == 0)
        try f.own(f.remote + "/rpipe")
        let down = try f.cp(["--json", "\(f.server):\(f.remote)/rpipe", "\(f.server):\(f.remote)/t/a", f.dir.path + "/"])
        #expect(down.status == 1, "\(down.err)")
        let lines = CopyFixture.jsonLines(down)
        #expect(lines.contains { $0["status"] as? String == "skipped" && ($0["error"] as? String)?.contains("not a regular file") == true }, "\(down.out)")
        #expect(CopyFixture.holds(f.dir.file("a"), Array("a".utf8)))
    }

    /// On a terminal a progress line shows the file, its share, the rate and the time left while the copy runs, and
    /// a summary at the end (into a pipe there is none: `CopyErrorTests`).
    @Test func aTerminalSeesTheProgressLine() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        try CopyFixture.write(f.dir.file("slow.bin"), CopyFixture.random(6 << 20, seed: 9))
        let args = (["cp"] + f.connection + ["--limit", "2M", f.dir.file("slow.bin"), "\(f.server):\(f.remote)/"])
            .joined(separator: " ")
        let essh = try EsshInTmux(arguments: args, knownHosts: .empty)
        defer { essh.stop() }
        let running = try essh.tmux.waitFor(text: "MB/s", timeout: 20).joined(separator: "\n")
        #expect(running.contains("slow.bin") && running.contains("% ") && running.contains(" of 6.3 MB"), "\(running)")
        #expect(try essh.tmux.waitFor(text: " left", timeout: 20).joined().contains("slow.bin"))
        let end = try essh.waitForExit(0, timeout: 30).joined(separator: "\n")
        #expect(end.contains("Copied 1 file, 6.3 MB sent in"), "\(end)")
        #expect(CopyFixture.holds(f.remote + "/slow.bin", CopyFixture.random(6 << 20, seed: 9)))
    }

    /// --checksum prints `SHA256  DEST` per file (the same sum sha256sum gives), both ways; --limit holds the copy to
    /// its rate (a lower bound only: a loaded machine may be slower, never faster).
    @Test func checksumLinesAndTheRateLimit() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        let bytes = CopyFixture.random(3 << 20, seed: 13)
        try CopyFixture.write(f.dir.file("sum.bin"), bytes)
        let expected = try Binary.run("/usr/bin/sha256sum", [f.dir.file("sum.bin")]).out.prefix(64)
        let started = Date()
        let up = try f.cp(["--checksum", "--limit", "1M", f.dir.file("sum.bin"), "\(f.server):\(f.remote)/"])
        let took = Date().timeIntervalSince(started)
        #expect(up.status == 0, "\(up.err)")
        #expect(up.out == "\(expected)  \(f.server):\(f.remote)/sum.bin\n", "\(up.out)")
        #expect(took >= 1.5, "3 MiB at 1 MiB/s took \(took) s")
        let down = try f.cp(["--checksum", "\(f.server):\(f.remote)/sum.bin", f.dir.file("back.bin")])
        #expect(down.status == 0 && down.out == "\(expected)  \(f.dir.file("back.bin"))\n", "\(down.out) \(down.err)")
        #expect(CopyFixture.holds(f.dir.file("back.bin"), bytes))
    }
}
