import Crypto
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import SSH

/// What one command in the session's shell gave.
struct ShellRan {
    var out: [UInt8] = []
    var err: [UInt8] = []
    var exit = CommandExit(status: nil, signal: nil)
    var notices: [ShellNotice] = []
    var stdout: String { String(decoding: out, as: UTF8.self) }
    var stderr: String { String(decoding: err, as: UTF8.self) }
}

extension SessionShell {
    /// Runs `command` and collects everything it gave.
    func collect(_ command: String, timeout: Double? = 60, cancel: Cancellation? = nil) throws -> ShellRan {
        var ran = ShellRan()
        ran.exit = try run(command, timeout: timeout, cancel: cancel, output: { stream, bytes in
            if stream == .stdout { ran.out += bytes } else { ran.err += bytes }
        }, notice: { ran.notices.append($0) })
        return ran
    }

    /// Runs `command`, cancelling it once `marker` runs on the server (or after `after` seconds without a marker);
    /// returns the error and the seconds from the cancel until `run` returned.
    func runAndCancel(_ command: String, marker: String? = nil, user: String, after: Double = 0.5,
                      notices: inout [ShellNotice]) throws -> (SSHError?, Double) {
        let cancel = try Cancellation()
        let cancelledAt = Mutex<Date?>(nil)
        DispatchQueue.global().async {
            if let marker { _ = RemoteProcesses.waitUntilRunning(marker, user: user) } else { usleep(UInt32(after * 1e6)) }
            cancelledAt.withLock { $0 = Date() }
            cancel.cancel()
        }
        var said: [ShellNotice] = []
        let error = sshError {
            _ = try run(command, timeout: 30, cancel: cancel, output: { _, _ in }, notice: { said.append($0) })
        }
        notices = said
        return (error, Date().timeIntervalSince(cancelledAt.withLock { $0 } ?? Date.distantPast))
    }
}

/// The session's persistent shell against the real sshd (the test user's login shell is bash).
@Suite struct SessionShellTests {
    func open(_ s: TestServers) throws -> SessionShell {
        let shell = SessionShell(session: try connect(s))
        #expect(try shell.start() == .persistent)
        return shell
    }

    @Test func cdAndExportAndAliasesLastFromOneCommandToTheNext() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        #expect(shell.directory == s.home)
        #expect(try shell.collect("cd /tmp").exit == CommandExit(status: 0, signal: nil))
        #expect(try shell.collect("pwd").stdout == "/tmp\n")
        #expect(shell.directory == "/tmp")
        _ = try shell.collect("export X=1; Y=2; alias ll='echo listed'; greet() { echo \"hi $1\"; }")
        #expect(try shell.collect("echo $X $Y; sh -c 'echo child sees ${X-nothing} ${Y-nothing}'").stdout
                == "1 2\nchild sees 1 nothing\n")
        #expect(try shell.collect("ll").stdout == "listed\n")
        // An rc file that sets the prompts and a PROMPT_COMMAND (as `source ~/.bashrc` may) changes nothing.
        _ = try shell.collect("PS1='$ '; PS2='> '; PROMPT_COMMAND='echo between'; PS0='before'")
        #expect(try shell.collect("echo x").stdout == "x\n")
        #expect(try shell.collect("echo y").out == Array("y\n".utf8))
        #expect(try shell.collect("greet you").stdout == "hi you\n")
        _ = try shell.collect("printf 'echo sourced $PWD\\n' > /tmp/essh-src-$$ && . /tmp/essh-src-$$ && rm /tmp/essh-src-$$")
        #expect(try shell.collect("cd / && source /dev/stdin <<'EOF'\nZ=from-source\nEOF\necho $Z").stdout
                == "from-source\n")
        #expect(shell.directory == "/")
    }

    @Test func theStatusOfEachCommandComesBackAndDollarQuestionMarkMeansThePreviousOne() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        for code: Int32 in [0, 1, 42, 255] {
            #expect(try shell.collect("(exit \(code))").exit == CommandExit(status: code, signal: nil))
        }
        _ = try shell.collect("false")
        #expect(try shell.collect("echo $?").stdout == "1\n")
        _ = try shell.collect("(exit 7)")
        #expect(try shell.collect("echo $?").stdout == "7\n")
        // A command killed by a signal: its status as the shell reports it, 128 + the signal's number.
        #expect(try shell.collect("sh -c 'kill -KILL $$'").exit == CommandExit(status: 137, signal: nil))
    }

    @Test func outputWithoutAFinalNewlineAndNonUTF8BytesComeThroughExactly() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        let r = try shell.collect("printf 'héllo 日本 '; printf '\\377\\376\\000end'; printf 'err no newline' >&2")
        #expect(r.out == Array("héllo 日本 ".utf8) + [0xFF, 0xFE, 0x00] + Array("end".utf8))
        #expect(r.err == Array("err no newline".utf8))
        #expect(try shell.collect("printf x").out == Array("x".utf8))
        #expect(try shell.collect("true").out.isEmpty)
    }

    @Test func binaryOutputArrivesByteExact() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        let r = try shell.collect("head -c 3000000 \(s.data200M)")
        let local = try FileHandle(forReadingFrom: URL(fileURLWithPath: s.data200M)).read(upToCount: 3_000_000)
        #expect(r.out.count == 3_000_000)
        #expect(Data(SHA256.hash(data: Data(r.out))) == Data(SHA256.hash(data: local ?? Data())))
    }

    @Test func tenMegabytesOnEachStreamAtOnceDoNotStall() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        // In a subshell: bash, interactive, reports a background job of its own on stderr (`[1] 4242`).
        let cmd = "(head -c 10000000 /dev/zero | tr '\\0' e >&2 & head -c 10000000 /dev/zero | tr '\\0' o; wait)"
        let r = try shell.collect(cmd, timeout: 120)
        #expect(r.out.count == 10_000_000)
        #expect(r.err.count == 10_000_000)
        #expect(r.out.allSatisfy { $0 == UInt8(ascii: "o") })
        #expect(r.err.allSatisfy { $0 == UInt8(ascii: "e") })
        #expect(try shell.collect("echo next").stdout == "next\n")
    }

    /// Output that imitates markers — of another nonce, cut in halves, the shell echoing the lines it reads
    /// (`set -v`, `set -x`, which show the nonce of every line) — is output, and the command ends where it ends.
    @Test func outputImitatingTheMarkersIsOutput() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        let fake = "<essh-out 0123456789abcdef0123456789abcdef>0 1 /<essh-cwd 0123456789abcdef0123456789abcdef>"
            + "<essh-err 0123456789abcdef0123456789abcdef>"
        let r = try shell.collect("printf '%s' '\(fake)'; printf '%s' '\(fake)' >&2; printf '<essh-out '")
        #expect(r.stdout == fake + "<essh-out ")
        #expect(r.stderr == fake)
        let verbose = try shell.collect("set -v; echo one; set -x; echo two; set +xv")
        #expect(verbose.stdout == "one\ntwo\n")
        #expect(verbose.stderr.contains("echo two"))
        _ = try shell.collect("set -vx")
        let echoed = try shell.collect("echo three")
        #expect(echoed.stdout == "three\n")
        // The nonce is in what the shell echoed; the markers it prints never are.
        #expect(echoed.stderr.contains("__essh_n="), "\(echoed.stderr)")
        _ = try shell.collect("set +vx")
        #expect(try shell.collect("history | wc -l").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(try shell.collect("pwd").stdout == s.home + "\n")
    }

    @Test func aSyntaxErrorDoesNotEndTheShell() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        _ = try shell.collect("cd /tmp")
        for bad in ["if", "fi", "echo 'unterminated", "( echo", "done; echo x"] {
            let r = try shell.collect(bad)
            #expect(r.exit.status == 2, "\(bad): \(r.exit)")
            #expect(r.stderr.contains("syntax error") || r.stderr.contains("unexpected"), "\(bad): \(r.stderr)")
            #expect(r.notices.isEmpty)
            #expect(try shell.collect("pwd").stdout == "/tmp\n", "after \(bad)")
        }
    }

    @Test func exitEndsTheShellAndTheNextCommandGetsAFreshOneWithANotice() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        _ = try shell.collect("cd /tmp; export KEPT=yes")
        let pid = shell.shellPID
        let r = try shell.collect("echo bye; exit 3")
        #expect(r.stdout == "bye\n")
        #expect(r.exit == CommandExit(status: 3, signal: nil))
        #expect(r.notices.count == 1)
        #expect(r.notices.first?.mode == .persistent)
        #expect(r.notices.first?.text.hasPrefix("The shell ended (exit 3): a new one started; cd, variables, aliases are reset") == true,
                "\(r.notices)")
        #expect(shell.shellPID != pid)
        #expect(try shell.collect("pwd; echo ${KEPT-gone}").stdout == s.home + "\ngone\n")
    }

    @Test func aCommandReadingItsInputGetsEndOfFile() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        let r = try shell.collect("cat; echo cat=$?; read x; echo read=$?; head -c 10 | wc -c")
        #expect(r.stdout == "cat=0\nread=1\n0\n")
        #expect(try shell.collect("echo after").stdout == "after\n")
    }

    /// Esc in the interface: a loop inside the shell and a sleeping command are stopped at INT, the shell stays with
    /// its working folder, and nothing is left running.
    @Test(arguments: ["while :; do :; done", "sleep 100", "sleep 100 | cat; echo not-reached"])
    func cancellingStopsTheCommandAndKeepsTheShell(command: String) throws {
        let s = try TestServers.require()
        let shell = try open(s)
        _ = try shell.collect("cd /tmp")
        let pid = shell.shellPID
        var notices: [ShellNotice] = []
        let (error, took) = try shell.runAndCancel(command, user: s.user, after: 0.3, notices: &notices)
        #expect(error?.kind == .cancelled)
        #expect(error?.detail == "the remote command ended after INT", "\(String(describing: error))")
        #expect(took < 1.4, "took \(took) s")
        #expect(notices.isEmpty)
        #expect(shell.shellPID == pid)
        let after = try shell.collect("echo $?; pwd")
        #expect(after.stdout == "130\n/tmp\n")
        #expect(after.err.isEmpty, "\(after.stderr)")
        #expect(try shell.collect("pgrep -g \(pid ?? 0) -l | grep -v pgrep | grep -c sleep || true").stdout == "0\n")
    }

    /// A command ignoring INT and TERM ends with KILL, sent to the shell's children only: the shell stays.
    @Test func aCommandIgnoringINTAndTERMGetsKILLAndTheShellStays() throws {
        let s = try TestServers.require()
        let marker = RemoteProcesses.marker("shelltrap")
        defer { RemoteProcesses.kill(marker, user: s.user) }
        let shell = try open(s)
        _ = try shell.collect("cd /tmp")
        var notices: [ShellNotice] = []
        let (error, took) = try shell.runAndCancel("(trap '' INT TERM; \(RemoteProcesses.sleeper(marker)))",
                                                   marker: marker, user: s.user, notices: &notices)
        #expect(error?.kind == .cancelled)
        #expect(error?.detail == "the remote command ended after INT, TERM, KILL", "\(String(describing: error))")
        #expect(took >= 0.95 && took < 2, "took \(took) s")
        #expect(RemoteProcesses.waitUntilGone(marker, user: s.user))
        #expect(notices.isEmpty)
        #expect(try shell.collect("pwd").stdout == "/tmp\n")
    }

    /// A loop in a shell that ignores INT itself cannot be stopped without the shell: after the escalation the
    /// shell is killed, a fresh one starts, and the notice says its state was lost.
    @Test func aCommandThatCannotBeStoppedCostsTheShellAndANoticeSaysSo() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        _ = try shell.collect("cd /tmp")
        let pid = try #require(shell.shellPID)
        var notices: [ShellNotice] = []
        let (error, took) = try shell.runAndCancel("trap '' INT; while :; do :; done", user: s.user, after: 0.3,
                                                   notices: &notices)
        #expect(error?.kind == .cancelled)
        #expect(error?.detail.hasPrefix("no end of the remote command seen after INT, TERM, KILL") == true,
                "\(String(describing: error))")
        #expect(took < 3, "took \(took) s")
        #expect(notices.first?.text == "The command would not stop, so its shell was killed: a new one started; cd, "
                + "variables, aliases are reset", "\(notices)")
        #expect(shell.shellPID != pid)
        #expect(try shell.collect("pwd").stdout == s.home + "\n")
        var gone = false
        for _ in 0..<40 where !gone {
            gone = kill(pid_t(pid), 0) != 0
            if !gone { usleep(50_000) }
        }
        #expect(gone, "the old shell still runs")
    }

    @Test func aTimeoutStopsTheCommandAndKeepsTheShell() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        _ = try shell.collect("cd /tmp")
        let error = sshError { _ = try shell.collect("sleep 100", timeout: 1) }
        #expect(error?.kind == .commandTimedOut)
        #expect(error?.detail == "the remote command ended after INT")
        #expect(try shell.collect("pwd").stdout == "/tmp\n")
    }

    @Test func outputOfABackgroundJobAfterTheCommandEndedComesWithTheNextCommand() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        #expect(try shell.collect("(sleep 0.3; echo late) &").stdout == "")
        usleep(800_000)
        #expect(try shell.collect("echo now").stdout == "late\nnow\n")
    }

    @Test func aShellKilledWhileIdleIsReplacedBeforeTheNextCommand() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        _ = try shell.collect("cd /tmp")
        let pid = try #require(shell.shellPID)
        _ = try shell.session.capture("kill -KILL \(pid)")
        usleep(300_000)
        let r = try shell.collect("pwd")
        #expect(r.stdout == s.home + "\n")
        #expect(r.notices.first?.text == "The shell had ended (killed by KILL): a new one started; cd, variables, "
                + "aliases are reset", "\(r.notices)")
    }

    /// The shell's channel is kept in the session's handle: once the session is closed (libssh2 freed the channel
    /// with it), a command and a close say `disconnected` or do nothing, and never touch the freed channel.
    @Test func aShellUsedAfterItsSessionClosedSaysDisconnected() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        _ = try shell.collect("cd /tmp")
        shell.session.disconnect()
        #expect(sshError { _ = try shell.collect("pwd") }?.kind == .disconnected)
        shell.close()
        #expect(sshError { _ = try shell.collect("pwd") }?.kind == .disconnected)
        #expect(shell.directory == "/tmp")
    }

    /// The shell ends with the `SessionShell` that owns it; the connection stays for its other users.
    @Test func droppingTheSessionShellEndsTheRemoteShellAndKeepsTheConnection() throws {
        let s = try TestServers.require()
        let session = try connect(s)
        var shell: SessionShell? = SessionShell(session: session)
        #expect(try shell?.start() == .persistent)
        let pid = try #require(shell?.shellPID)
        shell = nil
        var gone = false
        for _ in 0..<40 where !gone {
            gone = kill(pid_t(pid), 0) != 0
            if !gone { usleep(50_000) }
        }
        #expect(gone, "the shell still runs")
        #expect(try session.capture("echo still").stdout == Array("still\n".utf8))
    }

    /// Commands from two threads take turns in the one shell (the session's lock): each gets its own output and
    /// status, and the shell's state stays one.
    @Test func commandsFromTwoThreadsTakeTurnsInTheOneShell() throws {
        let s = try TestServers.require()
        let shell = try open(s)
        let wrong = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for i in 0..<15 {
                do {
                    let r = try shell.collect("N=\(thread)-\(i); echo $N; (exit \(i))")
                    if r.stdout != "\(thread)-\(i)\n" || r.exit.status != Int32(i) {
                        wrong.withLock { $0.append("\(thread)-\(i): \(r.stdout) \(r.exit)") }
                    }
                } catch {
                    wrong.withLock { $0.append("\(thread)-\(i): \(error)") }
                }
            }
        }
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0 })")
        #expect(try shell.collect("echo ${N%-*}-${N#*-}").stdout.hasSuffix("-14\n"))
    }
}

/// Servers without a usable shell, and a login shell that is dash: extra sshd instances of the harness.
@Suite(.serialized) struct SessionShellServerTests {
    func connect(_ s: TestServers, _ server: ExtraSSHD) throws -> SSHSession {
        var o = options(s, port: server.port)
        let known = try TempDir()
        defer { known.cleanup() }
        let file = known.file("known_hosts")
        try (try server.knownHostsLine(servers: s, keyType: "ed25519") + "\n").write(toFile: file, atomically: true,
                                                                                     encoding: .utf8)
        o.knownHostsFile = file
        return try SSHSession.connect(o)
    }

    @Test func aForcedCommandMeansOneChannelPerCommandAndSaysWhy() throws {
        let s = try TestServers.require()
        let server = try ExtraSSHD(servers: s, extra: ["ForceCommand echo \"forced: $SSH_ORIGINAL_COMMAND\" | head -c 40"])
        defer { server.stop() }
        let shell = SessionShell(session: try connect(s, server))
        guard case .onePerCommand(let reason) = try shell.start() else {
            Issue.record("a forced command gave a persistent shell")
            return
        }
        #expect(reason.hasPrefix("it ended at once (exit 0)"), "\(reason)")
        let r = try shell.collect("echo hi")
        #expect(r.stdout == "forced: echo hi\n")
        #expect(r.notices.isEmpty)
        #expect(shell.directory == nil)
    }

    @Test func aServerWhoseShellNeverAnswersFallsBackWithinTheProbeTime() throws {
        let s = try TestServers.require()
        let server = try ExtraSSHD(servers: s, extra: ["ForceCommand exec cat >/dev/null"])
        defer { server.stop() }
        let shell = SessionShell(session: try connect(s, server), probeTimeout: 1)
        let started = Date()
        #expect(try shell.start() == .onePerCommand(reason: "no POSIX shell answered within 1 s"))
        #expect(Date().timeIntervalSince(started) < 2.5)
    }

    @Test func aNonPOSIXLoginShellFallsBack() throws {
        let s = try TestServers.require()
        // What a Windows server or a network device does with a POSIX line: an error and the end.
        let server = try ExtraSSHD(servers: s, extra: [
            "ForceCommand echo \"'exec' is not recognized as an internal or external command\" >&2; exit 1"])
        defer { server.stop() }
        let shell = SessionShell(session: try connect(s, server))
        #expect(try shell.start() == .onePerCommand(reason: "it ended at once (exit 1): \"'exec' is not recognized as "
                                                    + "an internal or external command\""))
    }

    @Test func aServerAllowingOneChannelAtATimeFallsBack() throws {
        let s = try TestServers.require()
        let server = try ExtraSSHD(servers: s, extra: ["MaxSessions 1"])
        defer { server.stop() }
        let shell = SessionShell(session: try connect(s, server))
        guard case .onePerCommand(let reason) = try shell.start() else {
            Issue.record("MaxSessions 1 gave a persistent shell")
            return
        }
        #expect(reason.hasPrefix("the server opens no second channel beside it (MaxSessions 1?)"), "\(reason)")
        // The probe's channels are closed before it answers: the first command gets the one channel.
        #expect(try shell.collect("echo one").stdout == "one\n")
        // Each command's channel is closed a moment before sshd has reaped its process and freed the one slot:
        // the next command's channel is asked for again rather than refused.
        for i in 2...30 { #expect(try shell.collect("echo \(i)").stdout == "\(i)\n") }
    }

    /// Debian's /bin/sh: the same behaviour with dash as the login shell (SHELL and the command's shell both dash).
    @Test func dashAsTheLoginShell() throws {
        let s = try TestServers.require()
        let server = try ExtraSSHD(servers: s, extra: [
            "SetEnv SHELL=/bin/dash", "ForceCommand exec /bin/dash -c \"$SSH_ORIGINAL_COMMAND\""])
        defer { server.stop() }
        let shell = SessionShell(session: try connect(s, server))
        #expect(try shell.start() == .persistent)
        #expect(try shell.collect("echo $0").stdout == "/bin/dash\n")
        _ = try shell.collect("cd /tmp; export X=1; alias ll='echo listed'")
        #expect(try shell.collect("pwd; echo $X; ll").stdout == "/tmp\n1\nlisted\n")
        let bad = try shell.collect("if")
        #expect(bad.exit.status == 2)
        #expect(bad.stderr.contains("Syntax error"), "\(bad.stderr)")
        #expect(try shell.collect("printf noeol").stdout == "noeol")
        #expect(try shell.collect("cat; echo $?").stdout == "0\n")
        _ = try shell.collect("(exit 5)")
        #expect(try shell.collect("echo $?").stdout == "5\n")
        for loop in ["while :; do :; done", "sleep 100"] {
            var notices: [ShellNotice] = []
            let (error, _) = try shell.runAndCancel(loop, user: s.user, after: 0.3, notices: &notices)
            #expect(error?.detail == "the remote command ended after INT", "\(String(describing: error))")
            #expect(try shell.collect("pwd").stdout == "/tmp\n")
        }
        let exit = try shell.collect("exit 4")
        #expect(exit.exit.status == 4)
        #expect(exit.notices.first?.mode == .persistent)
        #expect(try shell.collect("pwd").stdout == s.home + "\n")
    }
}
