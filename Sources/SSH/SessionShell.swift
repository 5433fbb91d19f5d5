import Foundation
import Synchronization

/// How a session runs its free-form commands.
public enum ShellMode: Sendable, Equatable {
    /// In one shell that lasts (the working folder, variables, aliases and functions carry over).
    case persistent
    /// Each in a shell of its own, on a new channel: the server has no usable shell (why, for the person).
    case onePerCommand(reason: String)
}

/// Something the person should know about the session's shell, said once: it ended and a fresh one took its place,
/// or the session now runs one command per channel. `mode` is the mode from now on.
public struct ShellNotice: Sendable, Equatable {
    public var text: String
    public var mode: ShellMode

    public init(text: String, mode: ShellMode) {
        self.text = text
        self.mode = mode
    }
}

/// A session's commands as a person types them into a terminal: one shell on the server for the whole session
/// (`cd /tmp` then `pwd` prints /tmp), each command's output, status and working folder delimited exactly. A
/// server that has no usable shell (a refused channel, a forced command, a restricted or non-POSIX shell, a network
/// device) gets one channel per command, as `SSHSession.run`. When the shell ends (`exit`, or a command that would
/// not stop), a fresh one takes its place and a `ShellNotice` says that its state was lost.
/// Commands run one at a time, like everything on a session: each runs inside the session's lock, and the shell
/// (`CommandShell`, whose channel is in the session's handle) changes only there.
public final class SessionShell: Sendable {
    /// The connection the shell runs on (quick commands and interactive shells use it directly).
    public let session: SSHSession
    /// Seconds the server's shell has to answer its first line before the session runs one command per channel.
    public let probeTimeout: Double

    private struct State {
        var shell: CommandShell?
        var mode: ShellMode?
        var directory: String?
    }

    /// Changed only with the session's lock held (`withShell`), so commands see one shell; read without it, so the
    /// accessors below never wait for a running command.
    private let state = Mutex(State())

    public init(session: SSHSession, probeTimeout: Double = 5) {
        self.session = session
        self.probeTimeout = probeTimeout
    }

    /// The shell ends with its owner (the connection stays).
    deinit { close() }

    /// The mode settled by `start` (nil before).
    public var mode: ShellMode? { state.withLock { $0.mode } }

    /// The shell's working folder after the last command (nil without a persistent shell), where other channels can
    /// start.
    public var directory: String? { state.withLock { $0.directory } }

    /// The shell's process ID on the server (nil without a persistent shell).
    public var shellPID: Int? { state.withLock { $0.shell?.pid } }

    /// Opens the persistent shell, or settles on one channel per command when the server has none that answers.
    /// Throws only when the connection failed or `cancel` fired. Calling it again returns the mode already settled.
    @discardableResult
    public func start(cancel: Cancellation? = nil) throws(SSHError) -> ShellMode {
        try withShell { (handle: inout SessionHandle, state: inout State) throws(SSHError) -> ShellMode in
            try start(&state, handle: &handle, cancel: cancel)
        }
    }

    /// Runs `command` as the session's shell would: in the persistent shell (see `CommandShell.run`), or on a new
    /// channel in the fallback mode. `notice` hears when the shell ended and was replaced, or the mode changed.
    /// Errors are `SSHSession.run`'s: `cancelled` and `commandTimedOut` after the command was stopped on the server.
    public func run(_ command: String, timeout: Double? = nil, cancel: Cancellation? = nil,
                    stop: StopEscalation = .standard, output: (OutputStream, UnsafeRawBufferPointer) -> Void,
                    notice: (ShellNotice) -> Void = { _ in }) throws(SSHError) -> CommandExit {
        try withShell { (handle: inout SessionHandle, state: inout State) throws(SSHError) -> CommandExit in
            try run(command, timeout: timeout, cancel: cancel, stop: stop, state: &state, handle: &handle,
                    output: output, notice: notice)
        }
    }

    /// Ends the shell (the connection stays).
    public func close() {
        withShell { (handle: inout SessionHandle, state: inout State) -> Void in
            state.shell?.close(handle: &handle)
            state.shell = nil
        }
    }

    /// Runs `body` with the session's lock held on a copy of the state, written back before the lock is let go
    /// (also when `body` throws): every change happens under the session's lock, one command at a time.
    private func withShell<Result: Sendable, Failure: Error>(
        _ body: (inout SessionHandle, inout State) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try session.state.withLock { (handle: inout SessionHandle) throws(Failure) -> Result in
            var current = state.withLock { $0 }
            defer { state.withLock { [current] in $0 = current } }
            return try body(&handle, &current)
        }
    }

    private func start(_ state: inout State, handle: inout SessionHandle,
                       cancel: Cancellation?) throws(SSHError) -> ShellMode {
        if let mode = state.mode { return mode }
        return try open(&state, handle: &handle, cancel: cancel)
    }

    private func run(_ command: String, timeout: Double?, cancel: Cancellation?, stop: StopEscalation,
                     state: inout State, handle: inout SessionHandle,
                     output: (OutputStream, UnsafeRawBufferPointer) -> Void,
                     notice: (ShellNotice) -> Void) throws(SSHError) -> CommandExit {
        let mode = try start(&state, handle: &handle, cancel: cancel)
        guard mode == .persistent, var shell = state.shell else {
            return try handle.run(command, input: .none, timeout: timeout, cancel: cancel, stop: stop, output: output)
        }
        let ending: CommandShell.Ending
        do throws(SSHError) {
            defer { state.shell = shell }
            ending = try shell.run(command, timeout: timeout, cancel: cancel, stop: stop, handle: &handle,
                                   output: output)
        } catch {
            if shell.isOpen { state.directory = shell.directory }
            if !shell.isOpen && error.kind != .disconnected && !handle.isClosed {
                let why = "The command would not stop, so its shell was killed"
                if let said = try? replace(why, state: &state, handle: &handle, cancel: nil) { notice(said) }
            }
            throw error
        }
        switch ending {
        case .finished(let exit):
            state.directory = shell.directory
            return exit
        case .shellEnded(let exit):
            let said = try replace("The shell ended (\(exit.phrase))", state: &state, handle: &handle, cancel: nil)
            notice(said)
            return exit
        case .endedBefore(let exit):
            // A background job ended it while idle: this command goes to a fresh shell (or its own channel).
            let said = try replace("The shell had ended (\(exit.phrase))", state: &state, handle: &handle,
                                   cancel: cancel)
            notice(said)
            return try run(command, timeout: timeout, cancel: cancel, stop: stop, state: &state, handle: &handle,
                           output: output, notice: notice)
        }
    }

    /// Opens a shell in place of the one that ended and says so: what happened (`why`), that the state was lost,
    /// and the mode from now on.
    private func replace(_ why: String, state: inout State, handle: inout SessionHandle,
                         cancel: Cancellation?) throws(SSHError) -> ShellNotice {
        state.shell = nil
        let mode = try open(&state, handle: &handle, cancel: cancel)
        switch mode {
        case .persistent:
            return ShellNotice(text: why + ": a new one started; cd, variables, aliases are reset", mode: mode)
        case .onePerCommand(let reason):
            return ShellNotice(text: why + ", and no new one could be started (\(reason)): each command now runs in a "
                               + "shell of its own", mode: mode)
        }
    }

    private func open(_ state: inout State, handle: inout SessionHandle,
                      cancel: Cancellation?) throws(SSHError) -> ShellMode {
        switch try CommandShell.open(in: &handle, timeout: probeTimeout, cancel: cancel) {
        case .ready(let shell):
            state.shell = shell
            state.mode = .persistent
            state.directory = shell.directory
            return .persistent
        case .unusable(let reason):
            let mode = ShellMode.onePerCommand(reason: reason)
            state.shell = nil
            state.mode = mode
            state.directory = nil
            return mode
        }
    }
}
