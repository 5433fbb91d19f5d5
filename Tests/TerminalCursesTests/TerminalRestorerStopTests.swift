import Foundation
import Testing
@testable import TerminalCurses

/// Ctrl-Z's stop (`TerminalRestorer.stopProcess`) in a child process: stopped where a shell does job control, and
/// back when continued; dropped by the system where nothing could continue it. (tmux continues a pane's process that
/// stops, so an end-to-end test cannot tell the second case from a stop and a continue.)
@Suite struct TerminalRestorerStopTests {
    /// How the child ended or stopped, waited for up to 10 s.
    private enum Seen: Equatable { case exited(Int32), stopped(Int32), signalled(Int32), stillRunning }

    private func waitChild(_ pid: pid_t) -> Seen {
        let deadline = Date().addingTimeInterval(10)
        var status: Int32 = 0
        while Date() < deadline {
            let rc = waitpid(pid, &status, WNOHANG | WUNTRACED)
            if rc == pid {
                if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
                if status & 0xff == 0x7f { return .stopped((status >> 8) & 0xff) }
                return .signalled(status & 0x7f)
            }
            usleep(10_000)
        }
        return .stillRunning
    }

    /// Starts a child that puts itself in `newSession` (setsid: an orphaned process group, as under a shell without
    /// job control) or a process group of its own in this session (as a shell's job), calls `stopProcess`, and exits
    /// with 7 once it returns. Only async-signal-safe calls after `fork`.
    private func child(newSession: Bool) -> pid_t {
        let pid = fork()
        if pid == 0 {
            if newSession { _ = setsid() } else { _ = setpgid(0, 0) }
            TerminalRestorer.stopProcess()
            _exit(7)
        }
        return pid
    }

    @Test func asAShellsJobItStopsAndReturnsWhenContinued() throws {
        let pid = child(newSession: false)
        try #require(pid > 0)
        let first = waitChild(pid)
        #expect(first == .stopped(SIGTSTP), "stopped by SIGTSTP, as a Ctrl-Z at a shell stops a program")
        guard first == .stopped(SIGTSTP) else {
            kill(pid, SIGKILL)
            _ = waitChild(pid)
            return
        }
        kill(pid, SIGCONT)
        #expect(waitChild(pid) == .exited(7), "fg (SIGCONT) lets it go on")
    }

    @Test func whereNothingDoesJobControlTheStopIsDroppedAndItGoesOn() throws {
        let pid = child(newSession: true)
        try #require(pid > 0)
        let seen = waitChild(pid)
        #expect(seen == .exited(7), "nothing could continue a stopped process there: it must not stop")
        if seen != .exited(7) {
            kill(pid, SIGKILL)
            _ = waitChild(pid)
        }
    }
}
