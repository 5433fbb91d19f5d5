import NetParsers
import RemoteCommands
import Testing

/// The runner's choices (probe order, fallback, errors) with canned answers; the real sshd is in
/// QuickCommandRunnerSSHTests.
@Suite struct QuickCommandRunnerTests {
    static let ipAddr = """
        1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000
            link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00
            inet 127.0.0.1/8 scope host lo
               valid_lft forever preferred_lft forever

        """

    @Test func detectsLinuxFromUname() throws {
        let shell = FakeShell(["uname -s": .init(stdout: "Linux\n")])
        #expect(try QuickCommandRunner(shell: shell).detectOS() == .linux)
        #expect(shell.ran == ["uname -s"])
    }

    @Test func detectsWindowsThroughVerWhenUnameIsMissing() throws {
        let shell = FakeShell([
            "uname -s": .init(stdout: "", stderr: "'uname' is not recognized as an internal or external command,\r\n",
                              status: 1),
            "ver": .init(stdout: "\r\nMicrosoft Windows [Version 10.0.20348.2113]\r\n"),
        ])
        #expect(try QuickCommandRunner(shell: shell).detectOS() == .windows)
        #expect(shell.ran == ["uname -s", "ver"])
    }

    @Test func detectsWindowsThroughCmdWhenTheShellIsPowerShell() throws {
        let shell = FakeShell(["cmd /c ver": .init(stdout: "Microsoft Windows [Version 10.0.17763.5329]\r\n")])
        #expect(try QuickCommandRunner(shell: shell).detectOS() == .windows)
        #expect(shell.ran == ["uname -s", "ver", "cmd /c ver"])
    }

    @Test func anUnknownUnixIsNamedInTheError() {
        let shell = FakeShell(["uname -s": .init(stdout: "SunOS\n")])
        #expect {
            try QuickCommandRunner(shell: shell).detectOS()
        } throws: { error in
            let e = error as? RemoteCommandsError
            return e?.kind == .osNotDetected && e?.message.contains("“SunOS”") == true
        }
        #expect(shell.ran == ["uname -s"], "a POSIX shell answered: ver is not tried")
    }

    @Test func noProbeAnsweringIsAnErrorListingEachProbe() {
        let shell = FakeShell([:])
        #expect {
            try QuickCommandRunner(shell: shell).detectOS()
        } throws: { error in
            let e = error as? RemoteCommandsError
            return e?.kind == .osNotDetected && e?.detail.contains("uname -s: exit 127") == true
                && e?.detail.contains("cmd /c ver: exit 127") == true
        }
    }

    @Test func missingCommandsFallBackToTheNextInThePlan() throws {
        let shell = FakeShell(["ip addr": .init(stdout: Self.ipAddr)])
        let output = try QuickCommandRunner(shell: shell).run(.interfaces, os: .linux)
        #expect(shell.ran == ["ip -j addr", "ip addr"])
        #expect(output.command.commandLine == "ip addr")
        #expect(output.skipped == [SkippedCommand(commandLine: "ip -j addr", reason: "not found")])
        #expect(output.os == .linux && !output.osWasDetected)
        guard case .success(.interfaces(let result)) = output.parsed else {
            Issue.record("not parsed: \(output.parsed)")
            return
        }
        #expect(result.items.map(\.name) == ["lo"])
    }

    @Test func aFailingCommandIsPassedOverWithItsReason() throws {
        let shell = FakeShell([
            "ip -j addr": .init(stdout: "", stderr: "Option \"-j\" is unknown, try \"ip -help\".\n", status: 255),
            "ip addr": .init(stdout: Self.ipAddr),
        ])
        let output = try QuickCommandRunner(shell: shell).run(.interfaces, os: .linux)
        #expect(output.command.commandLine == "ip addr")
        #expect(output.skipped.first?.reason == "exit 255: Option \"-j\" is unknown, try \"ip -help\".")
    }

    @Test func unreadableOutputTriesTheNextCommandThenKeepsTheFirst() throws {
        let shell = FakeShell(["ip -j addr": .init(stdout: "this is not JSON\n"),
                               "ip addr": .init(stdout: "neither is this\n")])
        let output = try QuickCommandRunner(shell: shell).run(.interfaces, plan: Array(
            QuickCommand.plan(for: .linux, kind: .interfaces).prefix(2)))
        #expect(shell.ran == ["ip -j addr", "ip addr"])
        #expect(output.command.commandLine == "ip -j addr")
        #expect(String(decoding: output.stdout, as: UTF8.self) == "this is not JSON\n")
        guard case .failure(let error) = output.parsed else {
            Issue.record("garbage was parsed")
            return
        }
        #expect(error.description.contains("ip-addr-json") || error.description.contains("Tried"))
    }

    @Test func everyCommandMissingIsAnErrorNamingThemAll() {
        let shell = FakeShell([:])
        #expect {
            try QuickCommandRunner(shell: shell).run(.sockets, os: .linux)
        } throws: { error in
            let e = error as? RemoteCommandsError
            let message = e?.message ?? ""
            return e?.kind == .noCommandWorked && message.contains("ss -tunap (not found)")
                && message.contains("netstat -tuna (not found)")
        }
        #expect(shell.ran == QuickCommand.plan(for: .linux, kind: .sockets).map(\.commandLine))
    }

    @Test func autoDetectsTheSystemFirstAndAKnownSystemIsNotProbed() throws {
        let bsd = FakeShell(["uname -s": .init(stdout: "FreeBSD\n"), "netstat -rn": .init(stdout: "")])
        let detected = try QuickCommandRunner(shell: bsd).run(.routes, os: .auto)
        #expect(bsd.ran == ["uname -s", "netstat -rn"])
        #expect(detected.os == .bsd && detected.osWasDetected)

        let stored = FakeShell(["netstat -rn": .init(stdout: "")])
        let given = try QuickCommandRunner(shell: stored).run(.routes, os: .macos)
        #expect(stored.ran == ["netstat -rn"])
        #expect(given.os == .macos && !given.osWasDetected)
    }

    @Test func autoHasNoPlanOfItsOwn() {
        for kind in DataKind.allCases { #expect(QuickCommand.plan(for: .auto, kind: kind).isEmpty) }
    }
}
