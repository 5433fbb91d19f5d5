import Foundation
import LocalProcess
import Testing
import TestSupport

/// Ctrl-C in the middle of a copy, then `--resume`: no destination appears until the copy is whole, the partial copy
/// is kept, and the resumed run ends identical having sent less; a partial whose tail changed is not appended to (the
/// copy starts over and says why).
@Suite(.serialized) struct CopyResumeTests {
    /// 16 MB at 4 MiB/s: about four seconds, so SIGINT lands in the middle.
    static let size = 16 << 20

    /// Starts `essh cp ARGS`, waits until a partial of `name` in `folder` holds half of `size`, sends SIGINT, and
    /// returns the exit status, stderr and the partial's path.
    func interrupt(_ f: CopyFixture, _ args: [String], folder: String, name: String,
                   atLeast: Int = CopyResumeTests.size / 2) throws -> (status: Int32, err: String, partial: String?)
    {
        let errPath = f.dir.file("interrupted.err")
        let err = open(errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let null = open("/dev/null", O_RDWR)
        defer { close(err); close(null) }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in f.environment { env[k] = v }
        let pid = try ChildProcess.spawn(Binary.essh, ["cp"] + f.connection + args, environment: env, stdin: null,
                                         stdout: null, stderr: err, closeOtherDescriptors: true, newSession: true)
        var partial: String?
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let part = CopyFixture.names(folder).map({ String(decoding: $0, as: UTF8.self) })
                .first(where: { $0.hasPrefix("." + name + ".essh-") && $0.hasSuffix(".part") }),
               Self.written(folder + "/" + part) >= atLeast {
                partial = folder + "/" + part
                break
            }
            usleep(20_000)
        }
        kill(pid, SIGINT)
        let status = ChildProcess.wait(pid, timeout: 20)?.shellStatus ?? -1
        return (status, String(decoding: CopyFixture.read(errPath) ?? [], as: UTF8.self), partial)
    }

    /// Bytes written to `path`: its blocks, not its size (a striped partial's ranges leave holes until written).
    static func written(_ path: String) -> Int {
        var st = stat()
        guard lstat(path, &st) == 0 else { return 0 }
        return min(Int(st.st_size), Int(st.st_blocks) * 512)
    }

    @Test func ctrlCKeepsThePartialAndResumeFinishesItSendingLess() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        let bytes = CopyFixture.random(Self.size, seed: 11)
        try CopyFixture.write(f.dir.file("big"), bytes)
        let stopped = try interrupt(f, ["--limit", "4M", f.dir.file("big"), "\(f.server):\(f.remote)/big"],
                                    folder: f.remote, name: "big")
        #expect(stopped.status == 130, "\(stopped.err)")
        #expect(stopped.err.contains("--resume"), "says how to continue: \(stopped.err)")
        let partial = try #require(stopped.partial, "no partial of half the size appeared")
        #expect(CopyFixture.stat(f.remote + "/big") == nil, "no destination before the copy is whole")
        let kept = try #require(CopyFixture.read(partial))
        let isPrefix = Array(bytes.prefix(kept.count)) == kept
        #expect(kept.count >= Self.size / 2 && kept.count < Self.size && isPrefix, "partial of \(kept.count) bytes")
        let resumed = try f.cp(["--resume", "--json", f.dir.file("big"), "\(f.server):\(f.remote)/big"])
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(CopyFixture.holds(f.remote + "/big", bytes), "identical after --resume")
        let line = try #require(CopyFixture.jsonLines(resumed).first, "\(resumed.out)")
        let sent = line["sent"] as? Int ?? -1
        #expect(sent >= 0 && sent <= Self.size - kept.count, "sent \(sent) of \(Self.size): \(line)")
        #expect(line["resumed_from"] as? Int == kept.count, "\(line)")
        #expect(CopyFixture.names(f.remote).count == 1, "the partial is gone: \(CopyFixture.names(f.remote))")
    }

    /// A big upload goes on several lanes at once into one partial (the default striped push); Ctrl-C cuts it to
    /// its complete prefix under the name --resume looks for, and --resume continues it (the adversarial pass saw it
    /// deleted and all sent again: the copy's own channels were stopped by the cancel before they could cut it).
    @Test(.timeLimit(.minutes(2))) func anInterruptedStripedUploadResumes() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        let size = 80 << 20
        let bytes = CopyFixture.random(size, seed: 13)
        try CopyFixture.write(f.dir.file("huge"), bytes)
        let stopped = try interrupt(f, ["--limit", "16M", f.dir.file("huge"), "\(f.server):\(f.remote)/huge"],
                                    folder: f.remote, name: "huge", atLeast: size / 2)
        #expect(stopped.status == 130, "\(stopped.err)")
        let left = CopyFixture.names(f.remote).map { String(decoding: $0, as: UTF8.self) }
        #expect(left.count == 1 && left[0].hasPrefix(".huge.essh-"), "one partial is kept: \(left)")
        let resumed = try f.cp(["--resume", "--json", f.dir.file("huge"), "\(f.server):\(f.remote)/huge"],
                               timeout: 90)
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(CopyFixture.holds(f.remote + "/huge", bytes), "identical after --resume")
        let line = try #require(CopyFixture.jsonLines(resumed).first, "\(resumed.out)")
        let from = line["resumed_from"] as? Int ?? 0
        #expect(from > 0 && line["sent"] as? Int == size - from && line["resume_proof"] as? String == "sha256",
                "\(line)")
        #expect(CopyFixture.names(f.remote).count == 1, "the partial is gone: \(CopyFixture.names(f.remote))")
    }

    /// Down as well, and a partial whose last bytes were changed: `--resume` starts over and says where it differs.
    @Test func aPartialWithAChangedTailStartsOverAndSaysWhy() throws {
        let f = try CopyFixture()
        defer { f.cleanup() }
        let bytes = CopyFixture.random(Self.size, seed: 12)
        try CopyFixture.write(f.remote + "/big", bytes)
        try f.own(f.remote + "/big")
        let here = f.dir.file("down")
        try FileManager.default.createDirectory(atPath: here, withIntermediateDirectories: false)
        let stopped = try interrupt(f, ["--limit", "4M", "\(f.server):\(f.remote)/big", here + "/"],
                                    folder: here, name: "big")
        #expect(stopped.status == 130, "\(stopped.err)")
        let partial = try #require(stopped.partial, "no partial of half the size appeared")
        #expect(CopyFixture.stat(here + "/big") == nil)
        // One byte flipped a few bytes before the partial's end.
        var kept = try #require(CopyFixture.read(partial))
        kept[kept.count - 10] ^= 0xFF
        try CopyFixture.write(partial, kept)
        let resumed = try f.cp(["--resume", "--json", "\(f.server):\(f.remote)/big", here + "/"])
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(CopyFixture.holds(here + "/big", bytes), "identical after starting over")
        let line = try #require(CopyFixture.jsonLines(resumed).first, "\(resumed.out)")
        #expect(line["sent"] as? Int == Self.size, "all sent again: \(line)")
        let why = line["restarted"] as? String ?? ""
        // The whole kept prefix is proven (sha256 on both sides), not only its tail.
        #expect(why.contains("differs from the source") && line["resume_proof"] as? String == "sha256", "\(line)")
        // Without --json the reason is said on stderr.
        let stopped2 = try interrupt(f, ["--limit", "4M", "\(f.server):\(f.remote)/big", here + "/again"],
                                     folder: here, name: "again")
        #expect(stopped2.status == 130)
        if let partial2 = stopped2.partial, var tail = CopyFixture.read(partial2) {
            tail[tail.count - 1] ^= 0x01
            try CopyFixture.write(partial2, tail)
            let text = try f.cp(["--resume", "\(f.server):\(f.remote)/big", here + "/again"])
            #expect(text.status == 0 && text.err.contains("started over") && text.err.contains("differs"), "\(text.err)")
            #expect(CopyFixture.holds(here + "/again", bytes))
        }
    }

    /// 1048577 as "1,048,577", as the messages write byte positions.
    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}
