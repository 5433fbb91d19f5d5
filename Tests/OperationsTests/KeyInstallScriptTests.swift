import Foundation
import Operations
import Testing
import TestSupport

/// `KeyInstall`'s script run by the local POSIX shells on a scratch `$HOME`: what it does to `~/.ssh` is what it does
/// on a server (the real-sshd round trip is in EsshCLITests' KeyCommandTests).
@Suite struct KeyInstallScriptTests {
    static let key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFLfyKSZynnD63kx4LTCcCVDoLE7hrv6Hp5so7mmXekK me@laptop"
    static let other = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGRlmJJ1Fa6DnxE3RZC8yg2N4bqn6zAP3LyBmqf0pKyV other"

    /// The shells present here that a server's login shell may be (`command` wraps the script in `sh -c`).
    static var shells: [String] {
        ["/bin/sh", "/bin/bash", "/usr/bin/zsh", "/usr/bin/fish"].filter { FileManager.default.isExecutableFile(atPath: $0) }
    }

    func run(_ key: PublicKey, home: String, shell: String = "/bin/sh") throws -> (steps: [KeyInstall.Step], status: Int32) {
        let r = try Binary.run(shell, ["-c", KeyInstall.command(key)], environment: ["HOME": home])
        return (KeyInstall.steps(fromOutput: r.out), r.status)
    }

    func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "<none>" }

    func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    @Test(arguments: shells)
    func aFreshHomeGetsTheFolderTheFileAndTheLineWithPrivateModes(shell: String) throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let key = try PublicKey(text: Self.key, source: "k.pub")
        let r = try run(key, home: dir.path, shell: shell)
        #expect(r.status == 0)
        #expect(r.steps == [.madeFolder, .madeFile, .appended])
        #expect(mode(dir.file(".ssh")) == 0o700)
        #expect(mode(dir.file(".ssh/authorized_keys")) == 0o600)
        #expect(text(dir.file(".ssh/authorized_keys")) == Self.key + "\n")
    }

    @Test func runningTwiceLeavesOneLine() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let key = try PublicKey(text: Self.key, source: "k.pub")
        _ = try run(key, home: dir.path)
        let again = try run(key, home: dir.path)
        #expect(again.status == 0 && again.steps == [.alreadyThere])
        #expect(text(dir.file(".ssh/authorized_keys")) == Self.key + "\n")
    }

    @Test func theSameKeyWithAnotherCommentOrOptionsIsThereAlready() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.file(".ssh"), withIntermediateDirectories: true)
        let body = Self.other + "\nfrom=\"10.0.0.0/8\",no-pty " + Self.key.replacingOccurrences(of: "me@laptop", with: "old")
            + "\n"
        try body.write(toFile: dir.file(".ssh/authorized_keys"), atomically: false, encoding: .utf8)
        let r = try run(try PublicKey(text: Self.key, source: "k.pub"), home: dir.path)
        #expect(r.steps == [.alreadyThere])
        #expect(text(dir.file(".ssh/authorized_keys")) == body)
    }

    @Test func aFileWithoutAFinalNewlineGetsOneBeforeTheKey() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.file(".ssh"), withIntermediateDirectories: true)
        try Self.other.write(toFile: dir.file(".ssh/authorized_keys"), atomically: false, encoding: .utf8)
        chmod(dir.file(".ssh/authorized_keys"), 0o640)
        let r = try run(try PublicKey(text: Self.key, source: "k.pub"), home: dir.path)
        #expect(r.steps == [.addedNewline, .appended])
        #expect(text(dir.file(".ssh/authorized_keys")) == Self.other + "\n" + Self.key + "\n")
        #expect(mode(dir.file(".ssh/authorized_keys")) == 0o640, "an existing file keeps its mode")
    }

    @Test func aCommentWithShellSyntaxIsWrittenAsText() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let comment = "it's $(touch \(dir.file("pwned"))) `id` \"x\" \\ ; é"
        let line = Self.key.replacingOccurrences(of: "me@laptop", with: comment)
        let r = try run(try PublicKey(text: line, source: "k.pub"), home: dir.path)
        #expect(r.status == 0 && r.steps.last == .appended)
        #expect(text(dir.file(".ssh/authorized_keys")) == line + "\n")
        #expect(!FileManager.default.fileExists(atPath: dir.file("pwned")))
    }

    @Test func aHomeThatCannotBeWrittenFailsWithAStatus() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try Binary.run("/bin/sh", ["-c", KeyInstall.command(try PublicKey(text: Self.key, source: "k"))],
                               environment: ["HOME": dir.file("missing/deeper")])
        #expect(r.status != 0)
        #expect(!KeyInstall.steps(fromOutput: r.out).contains(.appended))
    }

    @Test func publicKeysAreReadAndOthersRefused() throws {
        let key = try PublicKey(text: "\n# a comment\n" + Self.key + "\n", source: "k.pub")
        #expect(key.type == "ssh-ed25519" && key.comment == "me@laptop" && key.line == Self.key)
        #expect(throws: KeyProblem.self) {
            try PublicKey(text: "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n", source: "id")
        }
        #expect(throws: KeyProblem.self) { try PublicKey(text: "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIFLf x", source: "k") }
        #expect(throws: KeyProblem.self) { try PublicKey(text: "hello world", source: "k") }
        #expect(throws: KeyProblem.self) { try PublicKey(text: "", source: "k") }
    }

    @Test func theFingerprintIsSSHKeygens() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try Self.key.write(toFile: dir.file("k.pub"), atomically: false, encoding: .utf8)
        let listed = try Binary.run("/usr/bin/ssh-keygen", ["-lf", dir.file("k.pub")])
        #expect(try PublicKey.read(path: dir.file("k.pub")).fingerprint == String(listed.out.split(separator: " ")[1]))
    }
}
