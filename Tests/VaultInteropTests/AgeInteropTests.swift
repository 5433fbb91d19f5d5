import Foundation
import Testing
import TestSupport
import Vault

/// Interop with Debian's `age` binary (installed by `make test-deps`), both ways. age reads a passphrase only from its
/// terminal (/dev/tty), so each run gets a pseudo-terminal of its own as its controlling terminal (`PseudoTerminal`),
/// and the test types the passphrase at the prompt. Not in FAST_TESTS: it needs the `age` package.
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

    /// age on a pseudo-terminal of its own (TestSupport's `PseudoTerminal`); a run that does not finish is a failure.
    func runAgeOnPTY(_ arguments: [String], answers: [(prompt: String, line: String)]) throws -> (status: Int32, transcript: String) {
        let result = try PseudoTerminal.run(Self.age, arguments, answers: answers)
        if result.status == -1 { Issue.record("age did not finish: \(result.transcript)") }
        return result
    }
}
