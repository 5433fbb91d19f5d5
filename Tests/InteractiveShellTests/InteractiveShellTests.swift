import Foundation
import Glibc
import SSH
import Testing
import TestSupport
@testable import InteractiveShell

extension OneTerminalAtATime {
/// The engine on a real pseudo-terminal (the test plays the person at the master side) against the real sshd.
@Suite struct InteractiveShellTests {
    /// A pty whose slave is the shell's terminal; everything written to the master is "typed".
    final class Keyboard: @unchecked Sendable {
        var master: Int32 = -1
        var slave: Int32 = -1
        private let lock = NSLock()
        private var seen: [UInt8] = []
        private var reader: Thread?

        init(columns: Int, rows: Int) throws {
            var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
            guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw ShellError("openpty failed") }
            // Drain the screen side so the shell's output never blocks, keeping a copy to look at.
            let fd = master
            let thread = Thread { [self] in
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let n = read(fd, &buffer, buffer.count)
                    if n <= 0 { break }
                    lock.lock()
                    seen += buffer[0..<n]
                    lock.unlock()
                }
            }
            thread.start()
            reader = thread
        }

        deinit { close(master); close(slave) }

        var screen: String {
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: seen, as: UTF8.self)
        }

        func type(_ text: String) { _ = text.withCString { write(master, $0, strlen($0)) } }

        /// Types `text` once `marker` has appeared on the screen (10 s at most).
        func type(_ text: String, after marker: String) {
            let deadline = Date().addingTimeInterval(10)
            while !screen.contains(marker) && Date() < deadline { usleep(20_000) }
            type(text)
        }
    }

    func session(_ s: TestServers) throws -> SSHSession {
        var o = ConnectOptions(host: s.host, port: s.port, user: s.user, knownHostsFile: s.knownHosts)
        o.identityFiles = [s.key("id_ed25519")]
        o.useAgent = false
        return try SSHSession.connect(o)
    }

    /// Runs the shell (or `command`, in `directory`) on a background thread while `drive` types; returns the outcome.
    func run(_ session: SSHSession, _ keyboard: Keyboard, command: String? = nil, directory: String? = nil,
             drive: @escaping @Sendable (Keyboard) -> Void) -> ShellOutcome
    {
        let options = InteractiveShell.Options(term: "vt100", input: keyboard.slave, output: keyboard.slave,
                                               command: command, directory: directory)
        let driver = Thread { drive(keyboard) }
        driver.start()
        return InteractiveShell.run(on: session, options: options)
    }

    @Test func theShellSeesTheTerminalTypeAndSizeAndItsExitStatusComesBack() throws {
        let s = try TestServers.require()
        let session = try session(s)
        let keyboard = try Keyboard(columns: 91, rows: 27)
        let outcome = run(session, keyboard) { k in
            k.type("echo T=$TERM; stty size; exit 5\r", after: "$ ")
        }
        #expect(outcome.end == .exited(CommandExit(status: 5, signal: nil)))
        #expect(outcome.exitCode == 5)
        #expect(keyboard.screen.contains("T=vt100"))
        #expect(keyboard.screen.contains("27 91"))
        // The session outlives the shell.
        #expect(try session.capture("echo still").stdout == Array("still\n".utf8))
    }

    @Test func tildeDotLeavesAtOnceAfterSendingWhatWasTypedBeforeIt() throws {
        let s = try TestServers.require()
        let session = try session(s)
        let keyboard = try Keyboard(columns: 80, rows: 24)
        let marker = "/tmp/essh-tilde-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let outcome = run(session, keyboard) { k in
            k.type("sleep 300; touch \(marker)\r~.", after: "$ ")
        }
        #expect(outcome.end == .escape)
        #expect(outcome.duration < 5, "~. does not wait for the remote shell")
        #expect(outcome.sentence(host: "h") == "Disconnected from the shell on h (~.).")
        // The line before `~.` reached the server (sleep is running there), and the session is still usable.
        let ps = try session.capture("pgrep -u \(s.user) -f 'sleep 300' >/dev/null && echo running")
        #expect(String(decoding: ps.stdout, as: UTF8.self) == "running\n")
        _ = try session.capture("pkill -u \(s.user) -f 'sleep 300'")
    }

    @Test func aResizeOfTheLocalTerminalReachesTheRemotePTY() throws {
        let s = try TestServers.require()
        let session = try session(s)
        let keyboard = try Keyboard(columns: 80, rows: 24)
        let outcome = run(session, keyboard) { k in
            k.type("stty size\r", after: "$ ")
            var size = winsize(ws_row: 50, ws_col: 132, ws_xpixel: 0, ws_ypixel: 0)
            k.type("", after: "24 80")
            _ = ioctl(k.slave, UInt(TIOCSWINSZ), &size)
            kill(getpid(), SIGWINCH)
            usleep(200_000)
            k.type("stty size\r")
            k.type("exit\r", after: "50 132")
        }
        #expect(outcome.end == .exited(CommandExit(status: 0, signal: nil)))
        #expect(keyboard.screen.contains("50 132"))
    }

    /// The interface's commands that need a terminal: a command on the PTY (here one reading a password from
    /// /dev/tty, as sudo does) in the session's folder, its status back, and whether it used the alternate screen.
    @Test func aCommandRunsOnThePTYInTheFolderGivenAndReadsTheTerminal() throws {
        let s = try TestServers.require()
        let session = try session(s)
        let keyboard = try Keyboard(columns: 80, rows: 24)
        let outcome = run(session, keyboard, command: "stty -echo; read -p 'pw: ' v </dev/tty; stty echo; "
                          + "echo; echo got=$v; pwd; exit 3", directory: "/tmp") { k in
            k.type("s3cret\r", after: "pw: ")
        }
        #expect(outcome.end == .exited(CommandExit(status: 3, signal: nil)))
        // The screen side is read by another thread: give it the last bytes.
        keyboard.type("", after: "/tmp")
        #expect(keyboard.screen.contains("got=s3cret"))
        #expect(keyboard.screen.contains("/tmp"))
        #expect(!keyboard.screen.contains("pw: s3cret"), "not echoed")
        #expect(!outcome.usedAlternateScreen)

        let fullScreen = run(session, try Keyboard(columns: 80, rows: 24),
                             command: #"printf '\033[?1049h drawn \033[?1049l'"#) { _ in }
        #expect(fullScreen.end == .exited(CommandExit(status: 0, signal: nil)))
        #expect(fullScreen.usedAlternateScreen)

        let gone = run(session, try Keyboard(columns: 80, rows: 24), command: "echo never",
                       directory: "/nonexistent-\(getpid())") { _ in }
        #expect(gone.end == .exited(CommandExit(status: 1, signal: nil)), "a folder that is gone stops it there")
    }

    @Test func theCommandIsRunInTheFolderQuotedForTheShell() {
        #expect(InteractiveShell.Options(command: "top").remoteCommand == "top")
        #expect(InteractiveShell.Options(command: "ls", directory: "/srv/it's here").remoteCommand
                == #"cd '/srv/it'\''s here' || exit 1; ls"#)
        #expect(InteractiveShell.Options(directory: "/tmp").remoteCommand == nil, "no command: the login shell")
    }

    @Test func notATerminalIsRefusedBeforeAnythingOpens() throws {
        let s = try TestServers.require()
        let session = try session(s)
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let outcome = InteractiveShell.run(on: session, options: InteractiveShell.Options(input: fds[0]))
        #expect(outcome.end == .failedToStart("The standard input is not a terminal."))
        #expect(outcome.exitCode == 255)
    }
}
}
