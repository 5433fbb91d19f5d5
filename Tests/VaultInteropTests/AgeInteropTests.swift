import Foundation
import Testing
import Vault

/// Interop with Debian's `age` binary (installed by `make test-deps`), both ways. age reads a passphrase only from its
/// terminal (/dev/tty), so each run gets a pseudo-terminal of its own as its controlling terminal, and the test types
/// the passphrase at the prompt. Not in FAST_TESTS: it needs the `age` package.
@Suite(.serialized) struct AgeInteropTests {
    static let age = "/usr/bin/age"
    let passphrase = "interop passphrase ✓"

    @Test func esshWritesAgeReads() throws {
        try requireAge()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plaintext = Array("{\"entries\":{\"db1\":{\"password\":\"hunter2\"}}}\n".utf8)
            + (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }  // three chunks
        let file = try AgeFile.encrypt(plaintext: plaintext, passphrase: Array(passphrase.utf8), workFactor: 14)
        try Data(file).write(to: URL(fileURLWithPath: directory + "/in.age"))
        let result = try runAgeOnPTY(["-d", "-o", directory + "/out", directory + "/in.age"],
                                     answers: [("passphrase", passphrase)])
        #expect(result.status == 0, "age -d: \(result.transcript)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/out"))) == plaintext)

        // A payload re-sealed with the kept key (no second scrypt run) opens in age too.
        let key = try AgeFile.unlock(file, passphrase: Array(passphrase.utf8), maxWorkFactor: 18).key
        let changed = Array("{\"entries\":{}}\n".utf8)
        try Data(key.seal(changed)).write(to: URL(fileURLWithPath: directory + "/resealed.age"))
        let resealed = try runAgeOnPTY(["-d", "-o", directory + "/out3", directory + "/resealed.age"],
                                       answers: [("passphrase", passphrase)])
        #expect(resealed.status == 0, "age -d: \(resealed.transcript)")
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/out3"))) == changed)

        // And age refuses the wrong passphrase on the same file (the test's typing reaches it).
        let wrong = try runAgeOnPTY(["-d", "-o", directory + "/out2", directory + "/in.age"],
                                    answers: [("passphrase", "not it")])
        #expect(wrong.status != 0)
        #expect(wrong.transcript.contains("incorrect passphrase") || wrong.transcript.contains("no identity matched"),
                "\(wrong.transcript)")
    }

    @Test(arguments: [0, 5, 65_536, 70_000])
    func ageWritesEsshReads(size: Int) throws {
        try requireAge()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let plaintext = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        try Data(plaintext).write(to: URL(fileURLWithPath: directory + "/plain"))
        let result = try runAgeOnPTY(["-p", "-o", directory + "/out.age", directory + "/plain"],
                                     answers: [("Enter passphrase", passphrase), ("Confirm passphrase", passphrase)])
        #expect(result.status == 0, "age -p: \(result.transcript)")
        let file = try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/out.age")))
        #expect(try AgeFile.decrypt(file, passphrase: Array(passphrase.utf8), maxWorkFactor: 22) == plaintext)
        #expect(throws: AgeError.wrongPassphrase) {
            try AgeFile.decrypt(file, passphrase: Array("nope".utf8), maxWorkFactor: 22)
        }
        #expect(throws: AgeError.workFactorTooHigh(18, limit: 17)) {  // age 1.1's default work factor is 2^18
            try AgeFile.decrypt(file, passphrase: Array(passphrase.utf8), maxWorkFactor: 17)
        }
    }

    // MARK: - age on a pseudo-terminal

    func requireAge() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.age) else {
            Issue.record("\(Self.age) is missing: install Debian's age package (make test-deps)")
            throw CancellationError()
        }
    }

    func temporaryDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/essh-age-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else { throw POSIXError(.EIO) }
        return String(cString: template)
    }

    /// Runs age in a new session whose controlling terminal is a fresh pty; answers each prompt (a substring of what
    /// age writes) in order with a line; returns its exit status and everything it wrote to the terminal.
    func runAgeOnPTY(_ arguments: [String], answers: [(prompt: String, line: String)]) throws -> (status: Int32, transcript: String) {
        var master: Int32 = -1, slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw POSIXError(.EIO) }
        defer { close(master) }
        guard let name = ttyname(slave) else { close(slave); throw POSIXError(.EIO) }
        let slavePath = String(cString: name)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, master)
        posix_spawn_file_actions_addclose(&actions, slave)
        // Opened in the child after setsid and without O_NOCTTY: the pty becomes its controlling terminal, /dev/tty.
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, 0x80)  // POSIX_SPAWN_SETSID
        let argv: [UnsafeMutablePointer<CChar>?] = ([Self.age] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, Self.age, &actions, &attributes, argv, environ)
        close(slave)
        guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }

        var transcript: [UInt8] = []
        var pending = answers[...]
        var answeredUpTo = 0
        let deadline = Date().addingTimeInterval(60)
        var status: Int32 = 0
        var exited = false
        while Date() < deadline {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = read(master, &buffer, buffer.count)
                if n > 0 { transcript += buffer[0..<n] }
            }
            if let next = pending.first,
               String(decoding: transcript[answeredUpTo...], as: UTF8.self).contains(next.prompt) {
                answeredUpTo = transcript.count
                let bytes = Array((next.line + "\r").utf8)
                _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                pending = pending.dropFirst()
            }
            if waitpid(pid, &status, WNOHANG) == pid { exited = true; break }
        }
        if !exited {
            kill(pid, SIGKILL)
            waitpid(pid, &status, 0)
            Issue.record("age did not finish: \(String(decoding: transcript, as: UTF8.self))")
        }
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, String(decoding: transcript, as: UTF8.self))
    }
}
