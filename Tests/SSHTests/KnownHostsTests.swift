import Foundation
import Testing
@testable import SSH

@Suite struct KnownHostsTests {
    let key = HostKey(type: "ssh-ed25519", blob: [0, 0, 0, 11] + Array("ssh-ed25519".utf8) + [0, 0, 0, 32] + Array(repeating: 7, count: 32))

    func parse(_ text: String) -> [KnownHosts.Entry] { KnownHosts.parse(text, file: "kh") }

    @Test func patternsFollowOpenSSH() {
        #expect(KnownHosts.patternsMatch("web1,web2", "web2"))
        #expect(KnownHosts.patternsMatch("*.example.org", "a.b.example.org"))
        #expect(KnownHosts.patternsMatch("web?", "web7"))
        #expect(!KnownHosts.patternsMatch("web?", "web10"))
        #expect(!KnownHosts.patternsMatch("*.example.org,!bad.example.org", "bad.example.org"))
        #expect(KnownHosts.patternsMatch("[db]:2222", "[db]:2222"))
        #expect(!KnownHosts.patternsMatch("db", "[db]:2222"))
        #expect(KnownHosts.patternsMatch("WEB1", "web1"))
    }

    @Test func hashedEntriesMatchTheirHostOnly() {
        let hashed = KnownHosts.hashedPattern("[10.0.0.1]:2222")
        #expect(hashed.hasPrefix("|1|"))
        #expect(KnownHosts.patternsMatch(hashed, "[10.0.0.1]:2222"))
        #expect(!KnownHosts.patternsMatch(hashed, "10.0.0.1"))
    }

    @Test func aLineHashedByOpenSSHMatchesItsHost() {
        // Made by `ssh-keygen -H` from the name "example.org".
        let line = "|1|a89Bl5qGuvWASniXf0z+9PswJUk=|OWt00F+xkIspRzP997ip4wDQpgQ= ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC8SsgjZ5KmIawiTSZ7ChmWHQ417DG/6NJFbk6FWyNjT"
        let entries = parse(line)
        #expect(entries.count == 1)
        #expect(KnownHosts.hashedMatches(entries[0].patterns, "example.org"))
        #expect(!KnownHosts.hashedMatches(entries[0].patterns, "example.com"))
    }

    @Test func parsingKeepsLineNumbersAndSkipsJunk() {
        let b64 = Data(key.blob).base64EncodedString()
        let entries = parse("# comment\n\nweb1 ssh-ed25519 \(b64)\ngarbage\n@cert-authority *.x ssh-ed25519 \(b64)\n@revoked * ssh-ed25519 \(b64) c\n")
        #expect(entries.map(\.line) == [3, 5, 6])
        #expect(entries.map(\.marker) == [.none, .certAuthority, .revoked])
    }

    @Test func verdicts() throws {
        let b64 = Data(key.blob).base64EncodedString()
        var other = key.blob
        other[other.count - 1] = 9
        let otherKey = HostKey(type: "ssh-ed25519", blob: other)
        var kh = try KnownHosts(userFile: "/nonexistent/known_hosts")
        #expect(kh.verify(host: "web1", port: 22, key: key) == .unknown(otherTypes: []))
        kh = KnownHostsTests.with(entries: parse("web1 ssh-ed25519 \(b64)\n"))
        #expect(kh.verify(host: "web1", port: 22, key: key) == .match(kh.entries[0]))
        #expect(kh.verify(host: "WEB1", port: 22, key: key) == .match(kh.entries[0]))
        #expect(kh.verify(host: "web1", port: 2222, key: key) == .unknown(otherTypes: []))
        #expect(kh.verify(host: "web1", port: 22, key: otherKey) == .changed(known: [kh.entries[0]]))
    }

    static func with(entries: [KnownHosts.Entry]) -> KnownHosts {
        var kh = try! KnownHosts(userFile: "/nonexistent/known_hosts")
        kh.setEntriesForTesting(entries)
        return kh
    }

    @Test func appendNeverRewritesTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kh-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/.ssh/known_hosts"
        var kh = try KnownHosts(userFile: file)
        try kh.append(host: "web1", port: 2222, key: key, hashed: false)
        try kh.append(host: "web2", port: 22, key: key, hashed: false)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text == "[web1]:2222 \(key.openSSHText)\nweb2 \(key.openSSHText)\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let dirAttributes = try FileManager.default.attributesOfItem(atPath: dir + "/.ssh")
        #expect((dirAttributes[.posixPermissions] as? Int) == 0o700)
        // A last line without a newline gets one before the appended line.
        try (text + "# no newline").write(toFile: file, atomically: true, encoding: .utf8)
        try kh.append(host: "web3", port: 22, key: key, hashed: false)
        #expect(try String(contentsOfFile: file, encoding: .utf8).hasSuffix("# no newline\nweb3 \(key.openSSHText)\n"))
    }

    @Test func hostKeyAlgorithmOrderPutsKnownTypesFirst() {
        let defaults = Algorithms.defaults
        #expect(defaults.orderedHostKeys(knownTypes: []) == defaults.hostKeys)
        #expect(defaults.orderedHostKeys(knownTypes: ["ecdsa-sha2-nistp256"]).first == "ecdsa-sha2-nistp256")
        // known_hosts stores RSA keys as ssh-rsa: the rsa-sha2 signature algorithms come first, never SHA-1 ssh-rsa.
        #expect(defaults.orderedHostKeys(knownTypes: ["ssh-rsa"]) == [
            "rsa-sha2-512", "rsa-sha2-256", "ssh-ed25519", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384",
            "ecdsa-sha2-nistp521",
        ])
        var old = defaults
        old.hostKeys += ["ssh-rsa"]
        #expect(old.orderedHostKeys(knownTypes: ["ssh-rsa"]).prefix(3) == ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"])
        // Several known types keep the list's own order among them.
        #expect(defaults.orderedHostKeys(knownTypes: ["ssh-rsa", "ssh-ed25519"]).prefix(3)
                    == ["ssh-ed25519", "rsa-sha2-512", "rsa-sha2-256"])
    }
}

@Suite struct DestinationTests {
    @Test func parsesTheForms() throws {
        #expect(try Destination(parsing: "web1") == Destination(host: "web1"))
        #expect(try Destination(parsing: "ann@web1:2222") == Destination(user: "ann", host: "web1", port: 2222))
        #expect(try Destination(parsing: "a@b@web1") == Destination(user: "a@b", host: "web1"))
        #expect(try Destination(parsing: "[::1]:22") == Destination(host: "::1", port: 22))
        #expect(try Destination(parsing: "fe80::1") == Destination(host: "fe80::1"))
        #expect(try Destination(parsing: "root@[2001:db8::1]") == Destination(user: "root", host: "2001:db8::1"))
    }

    @Test func rejectsBadFormsWithAReason() {
        for bad in ["", "@web1", "web1:0", "web1:70000", "web1:x", "[::1", "[::1]x", "we b1", "user@"] {
            #expect(throws: SSHError.self, "\(bad)") { try Destination(parsing: bad) }
        }
    }

    /// Found by `make fuzz` (destination): the user was taken whatever it held, and the host check missed DEL and
    /// the C1 controls (U+009B is a terminal's CSI); a DEST is printed back in messages, so both are refused.
    @Test func refusesControlCharactersInUserAndHost() throws {
        for bad in ["\0\0\0\0admin@web1:2222", "a\u{1B}[2J@web1", "ann@web\u{7F}1", "ann@web\u{9B}2J", "\u{85}@h",
                    "ann@[::1\u{9D}]:22"] {
            #expect(throws: SSHError.self, "\(bad.debugDescription)") { try Destination(parsing: bad) }
        }
        #expect(try Destination(parsing: "jörg@wéb1") == Destination(user: "jörg", host: "wéb1"))
    }

    /// Found by `make fuzz` (destination): the message quoted the text, control characters and all, to the terminal.
    @Test func quotesControlCharactersWrittenOut() {
        let user = #expect(throws: SSHError.self) { try Destination(parsing: "\u{1B}]0;x\u{7}@h") }
        #expect(user?.message.hasPrefix("“\\u{1b}]0;x\\u{7}@h” is not a destination: the user contains control") == true)
        let port = #expect(throws: SSHError.self) { try Destination(parsing: "ue:\u{F}2f") }
        #expect(port?.message.hasPrefix("“ue:\\u{f}2f” is not a destination: the port “\\u{f}2f” is not") == true)
    }

    /// Found by `make fuzz` (destination): "[" followed by a combining mark made one character, so "[x::1]" was read
    /// as a bare host with brackets; delimiters are now found among Unicode scalars.
    @Test func findsDelimitersBeforeCombiningMarks() throws {
        #expect(try Destination(parsing: "[\u{7AA}::1]") == Destination(host: "\u{7AA}::1"))
        #expect(try Destination(parsing: "ann@\u{301}h:22") == Destination(user: "ann", host: "\u{301}h", port: 22))
    }
}
