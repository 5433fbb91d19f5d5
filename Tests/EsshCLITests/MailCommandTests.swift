import Foundation
import Inventory
import Mail
import Testing
import TestSupport

/// `essh mail` and `essh exec --mail` with the real MTA (dma behind /usr/sbin/sendmail): messages are found in
/// /var/mail/essh-test by a unique subject and read back with Python's email parser.
@Suite struct MailCommandTests {
    let user = "essh-test"
    var address: String { "essh-test@" + LocalIdentity.hostname }

    func unique(_ label: String) -> String { "\(label)-\(UUID().uuidString.prefix(8))" }

    func read(_ marker: String) throws -> MailInspector.Parsed {
        try MailInspector.parse(try MailInspector.delivered(to: user, marker: marker))
    }

    @Test func stdinIsMailedWithWellFormedHeadersAndTextIntact() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let marker = unique("cli-stdin")
        var input = Array("Grüße aus 日本 ✓\nsecond line\n".utf8)
        input += [0x62, 0x61, 0x64, 0xC3, 0x28, 0x0A]  // invalid UTF-8
        let r = try Binary.runEssh(["mail", "--db", dir.file("e.db"), "--to", address,
                                    "--subject", "\(marker) Größenbericht"], stdin: Data(input))
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.file("e.db")))  // sent at once: no database created
        let mail = try read(marker)
        #expect(mail.defects.isEmpty)
        #expect(mail.asciiHeaders)
        #expect(mail.header("Subject") == "\(marker) Größenbericht")
        #expect(mail.header("To") == address)
        #expect(mail.header("From") == "\(LocalIdentity.user)@\(LocalIdentity.hostname)")
        #expect(mail.header("MIME-Version") == "1.0")
        #expect(mail.header("Message-ID")?.hasSuffix("@\(LocalIdentity.hostname)>") == true)
        #expect(MailDate.parse(mail.header("Date") ?? "") != nil)
        #expect(mail.parts.first?.text == "Grüße aus 日本 ✓\nsecond line\nbad\u{FFFD}(\n")
    }

    @Test func everyRecipientOfALongToListGetsTheMessage() throws {
        // Seven addresses are more than one 78-column line; the last one (root) must still be delivered to.
        let dir = try TempDir()
        defer { dir.cleanup() }
        let marker = unique("cli-many")
        let to = Array(repeating: address, count: 6) + ["root@" + LocalIdentity.hostname]
        let r = try Binary.runEssh(["mail", "--db", dir.file("e.db"), "--to", to.joined(separator: ","),
                                    "--subject", marker], stdin: Data("to all\n".utf8))
        #expect(r.status == 0, "\(r.err)")
        let last = try MailInspector.parse(try MailInspector.delivered(to: "root", marker: marker))
        #expect(last.header("To") == to.joined(separator: ", "))
        #expect(last.parts.first?.text == "to all\n")
        #expect(try read(marker).parts.first?.text == "to all\n")
    }

    @Test func linesStartingWithFromArriveUnchanged() throws {
        // dma writes mbox and would turn a body line "From …" into ">From …".
        let dir = try TempDir()
        defer { dir.cleanup() }
        let marker = unique("cli-from")
        let text = "From the top\nFrom: not a header\n"
        let r = try Binary.runEssh(["mail", "--db", dir.file("e.db"), "--to", address, "--subject", marker],
                                   stdin: Data(text.utf8))
        #expect(r.status == 0, "\(r.err)")
        #expect(try read(marker).parts.first?.text == text)
    }

    @Test func aBareLocalUserIsDeliveredAndShownWithThisHost() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let marker = unique("cli-bare")
        let r = try Binary.runEssh(["mail", "--db", dir.file("e.db"), "--to", user, "--from", "ops", "--subject", marker],
                                   stdin: Data("local\n".utf8))
        #expect(r.status == 0, "\(r.err)")
        let mail = try read(marker)
        #expect(mail.header("To") == address)
        #expect(mail.header("From") == "ops@" + LocalIdentity.hostname)
    }

    @Test func dropOnAMissingDatabaseSaysSoAndCreatesNone() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try Binary.runEssh(["mail", "--db", dir.file("e.db"), "--drop", "1"])
        #expect(r.status == 2)
        #expect(r.err.contains("the outbox has no message #1"))
        #expect(!FileManager.default.fileExists(atPath: dir.file("e.db")))
    }

    @Test func aFileIsMailedUnderItsName() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try "from a file\n".write(toFile: dir.file("report.txt"), atomically: true, encoding: .utf8)
        let marker = unique("cli-file")
        let r = try Binary.runEssh(["mail", "--db", dir.file("e.db"), "--to", address, "--from", "ops@example.org",
                                    "--subject", marker, dir.file("report.txt")])
        #expect(r.status == 0, "\(r.err)")
        let mail = try read(marker)
        #expect(mail.header("From") == "ops@example.org")
        #expect(mail.parts.first?.text == "from a file\n")
        let missing = try Binary.runEssh(["mail", "--to", address, dir.file("nope.txt")])
        #expect(missing.status == 2)
        #expect(missing.err.contains("Cannot read \(dir.file("nope.txt")): it does not exist"), "\(missing.err)")
        #expect(missing.err.contains("Nothing was sent."))
    }

    @Test func execMailsTheOutputWithTheStatusBlockAndStillPrintsIt() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let marker = unique("cli-exec")
        let r = try Binary.runEssh(["exec", "--db", dir.file("e.db"), "--known-hosts", s.knownHosts,
                                    "-i", s.key("id_ed25519"), "-p", String(s.port), "\(s.user)@127.0.0.1",
                                    "--mail", address, "--subject", "\(marker) ✓", "--",
                                    "printf 'Größe 日本\\n'; echo oops >&2; exit 3"])
        #expect(r.status == 3, "\(r.err)")
        #expect(r.out == "Größe 日本\n")
        #expect(r.err == "oops\n")
        let mail = try read(marker)
        #expect(mail.defects.isEmpty)
        #expect(mail.header("Subject") == "\(marker) ✓")
        let text = try #require(mail.parts.first?.text)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Server:      127.0.0.1:\(s.port)")
        #expect(lines[1] == "User:        \(s.user)")
        #expect(lines[2] == "Command:     printf 'Größe 日本\\n'; echo oops >&2; exit 3")
        #expect(lines[3] == "Exit status: 3 (failure)")
        #expect(lines[4].hasPrefix("Started:     "))
        #expect(lines[5].hasPrefix("Duration:    ") && lines[5].hasSuffix(" s"))
        #expect(lines[6] == "")
        #expect(Set(lines[7...8]) == ["Größe 日本", "oops"])
    }

    @Test func execMailsWhatArrivedWhenTheTimeoutStopsTheCommand() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let marker = unique("cli-exec-timeout")
        let r = try Binary.runEssh(["exec", "--db", dir.file("e.db"), "--known-hosts", s.knownHosts,
                                    "-i", s.key("id_ed25519"), "-p", String(s.port), "\(s.user)@127.0.0.1",
                                    "--timeout", "1", "--mail", address, "--subject", marker, "--",
                                    "echo partial; sleep 10"], timeout: 30)
        #expect(r.status == 124, "\(r.err)")
        #expect(r.out == "partial\n")
        #expect(r.err.contains("did not finish within 1 s"))
        let text = try #require(try read(marker).parts.first?.text)
        #expect(text.contains("Exit status: unknown (the command did not finish: stopped by --timeout after 1 s)\n"))
        #expect(text.hasSuffix("\n\npartial\n"))
    }

    @Test func execMailsWhatArrivedWhenCtrlCInterruptsTheCommand() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let marker = unique("cli-exec-interrupt")
        // The interrupt comes once the first line is out.
        let script = """
            "$0" exec --db "$1" --known-hosts "$2" -i "$3" -p "$4" "$5" --mail "$6" --subject "$7" -- \
              'echo partial; sleep 30' >"$8" 2>"$8.err" &
            pid=$!
            for i in $(seq 1 400); do grep -q partial "$8" && break; sleep 0.05; done
            kill -INT $pid
            wait $pid
            echo "status $?"
            """
        let out = dir.file("out")
        let r = try Spawn.run("/bin/sh", ["-c", script, Binary.essh, dir.file("e.db"), s.knownHosts, s.key("id_ed25519"),
                                          String(s.port), "\(s.user)@127.0.0.1", address, marker, out], timeout: 25)
        let stderr = (try? String(contentsOfFile: out + ".err", encoding: .utf8)) ?? ""
        #expect(r.out.contains("status 130"), "\(r.out) \(r.err) \(stderr)")
        let text = try #require(try read(marker).parts.first?.text)
        #expect(text.contains("Exit status: unknown (the command did not finish: interrupted)\n"))
        #expect(text.hasSuffix("\n\npartial\n"))
    }

    @Test func execDefaultSubjectNamesCommandAndServer() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let marker = unique("cli-exec-default")
        let r = try Binary.runEssh(["exec", "--db", dir.file("e.db"), "--known-hosts", s.knownHosts,
                                    "-i", s.key("id_ed25519"), "-p", String(s.port), "\(s.user)@127.0.0.1",
                                    "--mail", address, "--", "echo \(marker)"])
        #expect(r.status == 0, "\(r.err)")
        let mail = try read(marker)
        #expect(mail.header("Subject") == "essh: echo \(marker) on 127.0.0.1:\(s.port)")
        #expect(mail.parts.first?.text?.hasSuffix("\n\n\(marker)\n") == true)
    }

    @Test func outputAboveTheInlineLimitIsAttached() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try Inventory(path: dir.file("e.db")).setSetting("mail.max_inline", to: "2000")
        let marker = unique("cli-attach")
        let big = (1...500).map { "row \($0) ünïcode\n" }.joined()
        let r = try Binary.runEssh(["mail", "--db", dir.file("e.db"), "--to", address, "--subject", marker],
                                   stdin: Data(big.utf8))
        #expect(r.status == 0, "\(r.err)")
        let mail = try read(marker)
        #expect(mail.defects.isEmpty)
        #expect(mail.header("Content-Type")?.hasPrefix("multipart/mixed") == true)
        #expect(mail.parts.count == 2)
        #expect(mail.parts[0].text?.contains("is attached as essh-output.txt") == true)
        #expect(mail.parts[1].filename == "essh-output.txt")
        #expect(mail.parts[1].text == big)
    }

    @Test func missingSendmailKeepsTheMessageAndARetryDeliversIt() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let db = dir.file("e.db")
        try Inventory(path: db).setSetting("mail.sendmail", to: "/nonexistent/sendmail")
        let marker = unique("cli-missing")
        let r = try Binary.runEssh(["mail", "--db", db, "--to", address, "--subject", marker], stdin: Data("kept\n".utf8))
        #expect(r.status == 75)
        #expect(r.err.contains("There is no sendmail program at /nonexistent/sendmail"))
        #expect(r.err.contains("kept in the outbox as #1; send it with `essh mail --retry --db \(db)`"))
        let list = try Binary.runEssh(["mail", "--db", db, "--list"])
        #expect(list.status == 0)
        #expect(list.out.contains(marker) && list.out.contains("/nonexistent/sendmail"))

        let stillBroken = try Binary.runEssh(["mail", "--db", db, "--retry"])
        #expect(stillBroken.status == 75)
        #expect(stillBroken.out.contains("#1 to \(address) not sent: There is no sendmail program"))
        #expect(try Inventory(path: db).pendingMail().first?.attempts == 2)

        try Inventory(path: db).setSetting("mail.sendmail", to: "/usr/sbin/sendmail")
        let retried = try Binary.runEssh(["mail", "--db", db, "--retry"])
        #expect(retried.status == 0, "\(retried.err)")
        #expect(retried.out == "#1 sent to \(address) (\(marker))\n")
        #expect(try read(marker).parts.first?.text == "kept\n")
        #expect(try Binary.runEssh(["mail", "--db", db, "--list"]).out == "The outbox is empty.\n")
    }

    @Test func aFailingSendmailIsReportedWithWhatItSaid() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let script = dir.file("sendmail")
        try dir.writeScript("#!/bin/sh\ncat >/dev/null\necho 'mail.example.org: connection refused' >&2\nexit 69\n", to: script)
        let db = dir.file("e.db")
        let marker = unique("cli-failing")
        let r = try Binary.runEssh(["mail", "--db", db, "--sendmail", script, "--to", address, "--subject", marker],
                                   stdin: Data("x\n".utf8))
        #expect(r.status == 75)
        #expect(r.err.contains("exited with status 69: mail.example.org: connection refused"))
        let pending = try Inventory(path: db).pendingMail()
        #expect(pending.count == 1 && pending[0].subject == marker)
        let retried = try Binary.runEssh(["mail", "--db", db, "--retry"])
        #expect(retried.status == 0, "\(retried.err)")
        _ = try read(marker)
    }

    @Test func anAddressTheMTARefusesStaysInTheOutboxUntilDropped() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let db = dir.file("e.db")
        let r = try Binary.runEssh(["mail", "--db", db, "--to", "no-such-user-\(UUID().uuidString.prefix(6))",
                                    "--subject", "refused"], stdin: Data("x\n".utf8))
        #expect(r.status == 75)
        #expect(r.err.contains("invalid recipient"))
        let id = try #require(try Inventory(path: db).pendingMail().first?.id)
        let dropped = try Binary.runEssh(["mail", "--db", db, "--drop", String(id)])
        #expect(dropped.status == 0)
        #expect(try Inventory(path: db).pendingMail().isEmpty)
        #expect(try Binary.runEssh(["mail", "--db", db, "--drop", String(id)]).status == 2)
    }

    @Test(arguments: [
        (["--to", "ops@@example.org"], "is not a mail address: it has more than one @"),
        (["--to", "ops@example.org\nBcc: victim@example.org"], "The To field contains a line break (LF)"),
        (["--to", "ops@example.org", "--subject", "hi\r\nBcc: victim@example.org"], "The Subject field contains a line break (CR)"),
        (["--to", "ops@example.org", "--from", "me@example.org\n"], "The From field contains a line break (LF)"),
    ])
    func badAddressesAndHeaderInjectionAreRefusedBeforeAnything(args: [String], message: String) throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try Binary.runEssh(["mail", "--db", dir.file("e.db")] + args, stdin: Data("x\n".utf8))
        #expect(r.status == 64)
        #expect(r.err.contains(message), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("e.db")))
    }

    @Test func execWithABadMailAddressRunsNothing() throws {
        let s = try TestServers.require()
        let flag = "/tmp/essh-mail-flag-\(UUID().uuidString)"
        defer { unlink(flag) }
        let r = try Binary.runEssh(["exec", "--known-hosts", s.knownHosts, "-i", s.key("id_ed25519"),
                                    "-p", String(s.port), "\(s.user)@127.0.0.1", "--mail", "not an address",
                                    "--", "touch \(flag)"])
        #expect(r.status == 64)
        #expect(r.err.contains("“not an address” in To is not a mail address"))
        #expect(!FileManager.default.fileExists(atPath: flag))
    }

    @Test func execMailFailureExits75AndKeepsTheOutput() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let db = dir.file("e.db")
        try Inventory(path: db).setSetting("mail.sendmail", to: "/nonexistent/sendmail")
        let r = try Binary.runEssh(["exec", "--db", db, "--known-hosts", s.knownHosts, "-i", s.key("id_ed25519"),
                                    "-p", String(s.port), "\(s.user)@127.0.0.1", "--mail", address, "--",
                                    "echo precious"])
        #expect(r.status == 75)
        #expect(r.out == "precious\n")
        #expect(r.err.contains("kept in the outbox as #1"))
        let kept = try #require(try Inventory(path: db).pendingMail().first)
        #expect(String(decoding: kept.message, as: UTF8.self).contains("precious"))
    }
}
