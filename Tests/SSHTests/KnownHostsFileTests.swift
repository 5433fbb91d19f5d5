import Foundation
import Testing
import TestSupport
@testable import SSH

/// known_hosts that is not a plain file of the user's: devices, FIFOs and links are never read without end, waited
/// on, or written into (issue 13 §6).
@Suite struct KnownHostsFileTests {
    @Test func aDeviceAFIFOAndAFolderAreRefusedAtOnceWithWhatTheyAre() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let fifo = dir.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, what) in [("/dev/zero", "character device"), (fifo, "FIFO"), (dir.path, "folder")] {
            let started = Date()
            let error = #expect(throws: SSHError.self) { _ = try KnownHosts(userFile: path) }
            #expect(error?.kind == .knownHostsFile)
            #expect(error?.message.contains(what) == true, "\(path): \(String(describing: error?.message))")
            #expect(Date().timeIntervalSince(started) < 2, "no blocking, no reading without end")
        }
    }

    @Test func devNullIsAnEmptyFileThatKeepsNothing() throws {
        var known = try KnownHosts(userFile: "/dev/null")
        #expect(known.entries.isEmpty)
        let key = try #require(HostKey(blob: [UInt8](Data(base64Encoded: String(Self.sampleKey.split(separator: " ")[1]))!)))
        try known.append(host: "h", port: 22, key: key, hashed: true)
        #expect(try KnownHosts(userFile: "/dev/null").entries.isEmpty)
    }

    @Test func aLinkToAFileThatIsNotKnownHostsIsNeverWrittenInto() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let passwd = dir.file("passwd-copy")
        try FileManager.default.copyItem(atPath: "/etc/passwd", toPath: passwd)
        let before = try Data(contentsOf: URL(fileURLWithPath: passwd))
        let link = dir.file("known_hosts")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: passwd)
        var known = try KnownHosts(userFile: link)
        let key = try #require(HostKey(blob: [UInt8](Data(base64Encoded: String(Self.sampleKey.split(separator: " ")[1]))!)))
        let error = #expect(throws: SSHError.self) { try known.append(host: "h", port: 22, key: key, hashed: false) }
        #expect(error?.message.contains("not a known_hosts file") == true, "\(String(describing: error?.message))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: passwd)) == before, "the linked file is untouched")
    }

    @Test func aLinkToARealKnownHostsFileIsAppendedTo() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let real = dir.file("dotfiles-known_hosts")
        try "# mine\nexample.org \(Self.sampleKey)\n".write(toFile: real, atomically: true, encoding: .utf8)
        let link = dir.file("known_hosts")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        var known = try KnownHosts(userFile: link)
        let key = try #require(HostKey(blob: [UInt8](Data(base64Encoded: String(Self.sampleKey.split(separator: " ")[1]))!)))
        try known.append(host: "other.example", port: 2222, key: key, hashed: false)
        let text = try String(contentsOfFile: real, encoding: .utf8)
        #expect(text.hasSuffix("[other.example]:2222 \(Self.sampleKey)\n"))
        var info = stat()
        #expect(lstat(link, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK, "still a link")
    }

    @Test func aFileOfAnotherUserIsNotWrittenInto() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let file = dir.file("known_hosts")
        try "".write(toFile: file, atomically: true, encoding: .utf8)
        // nobody's file (the tests run as root, who could write anywhere).
        #expect(chown(file, 65534, 65534) == 0)
        var known = try KnownHosts(userFile: file)
        let key = try #require(HostKey(blob: [UInt8](Data(base64Encoded: String(Self.sampleKey.split(separator: " ")[1]))!)))
        let error = #expect(throws: SSHError.self) { try known.append(host: "h", port: 22, key: key, hashed: false) }
        #expect(error?.message.contains("not a regular file you own") == true)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "")
    }

    /// The CLI against the real sshd: a FIFO as --known-hosts ends at once with the reason, exit 255.
    @Test func execWithAFIFOAsKnownHostsEndsAtOnce() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        #expect(mkfifo(dir.file("fifo"), 0o600) == 0)
        let r = try Binary.runEssh(["exec", "--known-hosts", dir.file("fifo"), "-i", s.key("id_ed25519"),
                                    "-p", String(s.port), "\(s.user)@127.0.0.1", "true"], timeout: 10)
        #expect(r.status == 255, "\(r.err)")
        #expect(r.err.contains("FIFO"))
    }

    static let sampleKey = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICm3vBfLhid6di7gdK7JymxNFJ25NyUah8DVaDMr2NLS"
}
