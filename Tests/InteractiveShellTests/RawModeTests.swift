import Glibc
import Testing
@testable import InteractiveShell

/// Tests that change process-wide terminal settings and signal handlers run one at a time, never beside each
/// other: raw mode's crash handlers and the shell's signal handlers are per process.
@Suite(.serialized) enum OneTerminalAtATime {}

extension OneTerminalAtATime {
/// Raw mode on a real pseudo-terminal (openpty): the settings change as OpenSSH's do and come back exactly.
@Suite struct RawModeTests {
    final class PTY {
        var master: Int32 = -1
        var slave: Int32 = -1
        init() throws {
            guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw ShellError("openpty failed") }
        }
        deinit { close(master); close(slave) }
        var attributes: termios {
            var t = termios()
            tcgetattr(slave, &t)
            return t
        }
    }

    func same(_ a: termios, _ b: termios) -> Bool {
        var a = a, b = b
        return a.c_iflag == b.c_iflag && a.c_oflag == b.c_oflag && a.c_cflag == b.c_cflag && a.c_lflag == b.c_lflag
            && withUnsafeBytes(of: &a.c_cc) { Array($0) } == withUnsafeBytes(of: &b.c_cc) { Array($0) }
    }

    @Test func rawModeTurnsOffLineEditingEchoSignalsAndOutputProcessingThenRestoresExactly() throws {
        let pty = try PTY()
        let before = pty.attributes
        #expect(before.c_lflag & tcflag_t(ICANON | ECHO | ISIG) != 0, "a fresh pty starts cooked")
        let raw = try RawMode(descriptor: pty.slave)
        let during = pty.attributes
        #expect(during.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)
        #expect(during.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        #expect(during.c_oflag & tcflag_t(OPOST) == 0)
        raw.restore()
        #expect(same(pty.attributes, before))
        raw.restore()
        #expect(same(pty.attributes, before), "a second restore changes nothing")
    }

    @Test func droppingRawModeRestoresTheTerminal() throws {
        let pty = try PTY()
        let before = pty.attributes
        do { _ = try RawMode(descriptor: pty.slave) }
        #expect(same(pty.attributes, before))
    }

    @Test func crashHandlersAreInstalledOnlyWhileRaw() throws {
        let pty = try PTY()
        func handler(_ signal: Int32) -> OpaquePointer? {
            var current = sigaction()
            sigaction(signal, nil, &current)
            return unsafeBitCast(current.__sigaction_handler.sa_handler, to: OpaquePointer?.self)
        }
        let before = RawMode.crashing.map(handler)
        let raw = try RawMode(descriptor: pty.slave)
        #expect(RawMode.crashing.map(handler) != before)
        raw.restore()
        #expect(RawMode.crashing.map(handler) == before)
    }

    @Test func aDescriptorThatIsNotATerminalIsRefusedWithASentence() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(throws: ShellError.self) { try RawMode(descriptor: fds[0]) }
        do { _ = try RawMode(descriptor: fds[0]) } catch { #expect(error.message.contains("not a terminal")) }
    }

    @Test func theRawAttributesAreOpenSSHs() {
        var cooked = termios()
        cooked.c_iflag = tcflag_t(ICRNL | IXON | ISTRIP)
        cooked.c_lflag = tcflag_t(ICANON | ECHO | ISIG | IEXTEN | ECHOE)
        cooked.c_oflag = tcflag_t(OPOST | ONLCR)
        cooked.c_cflag = tcflag_t(CS8 | CREAD)
        var raw = RawMode.rawAttributes(from: cooked)
        #expect(raw.c_iflag == tcflag_t(IGNPAR))
        #expect(raw.c_lflag == 0)
        #expect(raw.c_oflag == tcflag_t(ONLCR), "only OPOST goes; the rest is untouched")
        #expect(raw.c_cflag == cooked.c_cflag)
        withUnsafeBytes(of: &raw.c_cc) { cc in
            #expect(cc[Int(VMIN)] == 1)
            #expect(cc[Int(VTIME)] == 0)
        }
    }
}
}
