import CLI
import Transfer
import Testing

/// `essh cp`'s operands read without I/O: which side is the server's, which server or fleet, and the bytes of each
/// path as the process received them; `--limit`'s rates.
@Suite struct CopyOperandsTests {
    private func read(_ words: [String], picks: Bool = false) throws(CopyOperands.Problem) -> CopyOperands {
        try CopyOperands(words.map { Array($0.utf8) }, optionsPickServers: picks)
    }

    private func problem(_ words: [String], picks: Bool = false) -> String {
        do {
            _ = try read(words, picks: picks)
            return ""
        } catch {
            return error.message
        }
    }

    @Test func oneServerUpAndDown() throws {
        let up = try read(["a", "./b:c", "web1:/srv/"])
        #expect(up.servers == .one("web1") && up.upload)
        #expect(up.sources == [Array("a".utf8), Array("./b:c".utf8)] && up.destination == Array("/srv/".utf8))
        let down = try read(["web:x", "web:y", "/tmp/"])
        #expect(down.servers == .one("web") && !down.upload && down.destination == Array("/tmp/".utf8))
        let ported = try read(["admin@10.0.0.5:2222:/var/log/syslog", "."])
        #expect(ported.servers == .one("admin@10.0.0.5:2222") && ported.sources == [Array("/var/log/syslog".utf8)])
        // An empty remote path is the login folder.
        #expect(try read(["f", "web1:"]).destination == [])
    }

    @Test func fleetPushAndPull() throws {
        let push = try read(["web1,web2", "./app.conf", ":/etc/app/"])
        #expect(push.servers == .fleet(selectors: ["web1,web2"]) && push.upload)
        #expect(push.sources == [Array("./app.conf".utf8)] && push.destination == Array("/etc/app/".utf8))
        let pull = try read([":/etc/os-release", "./collected/"], picks: true)
        #expect(pull.servers == .fleet(selectors: []) && !pull.upload)
        #expect(pull.sources == [Array("/etc/os-release".utf8)])
    }

    @Test func wrongCombinationsSayHowToWriteThem() {
        #expect(problem([]).contains("Give what to copy and where"))
        #expect(problem(["onlyone"]).contains("Give where to copy to"))
        #expect(problem(["a", "b"]).contains("Neither side is on a server"))
        #expect(problem(["web1:a", "web2:b"]).contains("Both sides are on servers"))
        #expect(problem(["web1:a", "web2:b", "."]).contains("more than one side"))
        #expect(problem(["web1:a", "b", "."]).contains("more than one side"))
        #expect(problem(["a", "b"], picks: true).contains("write the servers' side as :PATH"))
        #expect(problem(["web1,web2", "web1:a", ":/x"]).contains("SERVER:PATH names one server"))
        #expect(problem([":/a", ":/b"], picks: true).contains("Both sides are on the servers"))
        #expect(problem([":/a", "b"]).contains("needs its servers"))
        #expect(problem(["a", "[fd00::5:/x"]).contains("without its “]”"))
    }

    /// Words that are not UTF-8 reach the copy byte for byte; options and their values are passed over.
    @Test func rawWordsKeepBytesSwiftWouldReplace() {
        let odd: [UInt8] = [0x61, 0xFF, 0x62]
        let argv: [[UInt8]] = [Array("cp".utf8), Array("-P".utf8), Array("2222".utf8), Array("-rp".utf8), odd,
                               Array("--limit=1M".utf8), Array("--".utf8), Array("-dash".utf8), Array("web1:".utf8)]
        let parsed = [String(decoding: odd, as: UTF8.self), "-dash", "web1:"]
        let raw = CopyOperands.rawWords(parsed: parsed, argv: argv, subcommand: "cp", valueOptions: ["-P", "--limit"])
        #expect(raw == [odd, Array("-dash".utf8), Array("web1:".utf8)])
        // Not lined up (the parser saw other words): the parsed text is used.
        #expect(CopyOperands.rawWords(parsed: ["x"], argv: argv, subcommand: "cp", valueOptions: [])
                == [Array("x".utf8)])
    }

    /// ssh's attached `-Jhop` is read in cp too, after its operands as well; cp's `-p` is a flag there (it takes
    /// no value, so the word after it is not skipped) and `-P` takes one; exec keeps `-p PORT`.
    @Test func attachedJumpAndPortsPerCommand() throws {
        #expect(try CommandLineArguments.prepared(["cp", "-p", "-Jb1", "a", "web1:"])
                == ["cp", "-p", "-J", "b1", "a", "web1:"])
        #expect(try CommandLineArguments.prepared(["cp", "-P", "2222", "a", "-Jb1", "web1:", "--", "-Jx"])
                == ["cp", "-P", "2222", "a", "-J", "b1", "web1:", "--", "-Jx"])
        #expect(try CommandLineArguments.prepared(["exec", "-p", "2222", "-Jb1", "web1", "ls", "-Jx"])
                == ["exec", "-p", "2222", "-J", "b1", "web1", "--", "ls", "-Jx"])
    }

    @Test func ratesAreBytesPerSecondInPowersOf1024() throws {
        #expect(try CopyRate.parse("500K") == 512_000)
        #expect(try CopyRate.parse("10M") == 10 << 20)
        #expect(try CopyRate.parse("1G") == 1 << 30)
        #expect(try CopyRate.parse("1.5MiB/s") == 3 << 19)
        #expect(try CopyRate.parse("2048") == 2048)
        for bad in ["", "fast", "10X", "-1M", "0", "0.5", "1e9", "K"] {
            #expect(throws: CopyRate.Problem.self, "\(bad)") { try CopyRate.parse(bad) }
        }
    }
}

/// A transfer's errors have their place in the one exit-status table.
@Suite struct CopyExitStatusTests {
    @Test func transferErrorsMapToTheTable() {
        let cases: [(TransferError.Kind, CLI.ExitStatus)] = [
            (.usage, .usage), (.badInput, .badInput), (.connection, .connection), (.remoteFile, .failed),
            (.localFile, .failed), (.cancelled, .interrupted),
        ]
        for (kind, status) in cases { #expect(CLI.ExitStatus(for: TransferError(kind, "x")) == status, "\(kind)") }
    }
}
