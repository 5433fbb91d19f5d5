import Basics
import Foundation
import NetParsers
import SSH

/// Runs the OS-aware quick commands on an open session: detects the server's system, then runs the plan for a
/// kind, passing over commands that are missing or fail, and parses the output of the first that works.
/// Used by `essh net` and the terminal interface; no terminal, no database.
public struct QuickCommandRunner {
    /// The probes, in order: `uname -s` answers on every POSIX shell; `ver` on cmd; `cmd /c ver` on PowerShell.
    static let probes = [ServerOS.probeCommand, ServerOS.windowsProbeCommand, "cmd /c " + ServerOS.windowsProbeCommand]

    private let shell: any RemoteShell
    private let timeout: Double?
    private let cancel: Cancellation?

    /// A runner over `shell`; each command is stopped after `timeout` seconds (nil: never).
    public init(shell: any RemoteShell, timeout: Double? = 30, cancel: Cancellation? = nil) {
        self.shell = shell
        self.timeout = timeout
        self.cancel = cancel
    }

    /// Asks the server which system it runs (never `auto`).
    public func detectOS() throws(RemoteCommandsError) -> ServerOS {
        var answers: [String] = []
        for probe in Self.probes {
            let result = try capture(probe)
            let out = String(decoding: result.stdout, as: UTF8.self)
            if result.exit.status == 0, let os = ServerOS.detect(fromProbeOutput: out) { return os }
            let said = Self.summary(out.isEmpty ? result.stderr : result.stdout)
            answers.append("\(probe): \(result.exit.status.map { "exit \($0)" } ?? "no exit status")"
                           + (said.isEmpty ? "" : ", “\(said)”"))
            // A shell that runs uname is POSIX: ver will not say more.
            if probe == ServerOS.probeCommand && result.exit.status == 0 && !said.isEmpty {
                throw RemoteCommandsError(.osNotDetected, answers.joined(separator: "; "),
                                          "The server says it runs “\(said)”; eSSH's quick commands know Linux, "
                                          + "FreeBSD, macOS and Windows. Run the commands yourself with essh exec.")
            }
        }
        throw RemoteCommandsError(.osNotDetected, answers.joined(separator: "; "),
                                  "Could not tell the server's system: none of \(Self.probes.joined(separator: ", ")) "
                                  + "named Linux, FreeBSD, macOS or Windows. Run the commands yourself with essh exec.")
    }

    /// Runs the quick command for `kind` on a server running `os` (`auto`: detect it first).
    public func run(_ kind: DataKind, os: ServerOS) throws(RemoteCommandsError) -> QuickCommandOutput {
        let system = try os == .auto ? detectOS() : os
        var output = try run(kind, plan: QuickCommand.plan(for: system, kind: kind))
        output.os = system
        output.osWasDetected = os == .auto
        return output
    }

    /// Runs `plan` in order until a command works and its output can be read. A command that is missing or fails
    /// is passed over; when every command ran but none could be read, the first output that ran is returned with
    /// its parse error (so its raw text can still be shown). The result's `os` is nil; `run(_:os:)` fills it.
    public func run(_ kind: DataKind, plan: [QuickCommand]) throws(RemoteCommandsError) -> QuickCommandOutput {
        guard !plan.isEmpty else {
            throw RemoteCommandsError(.emptyPlan, "", "There is no \(kind.rawValue) command for this system.")
        }
        var skipped: [SkippedCommand] = []
        var unreadable: QuickCommandOutput?
        for command in plan {
            let result = try capture(command.commandLine)
            let stderrText = String(decoding: result.stderr, as: UTF8.self)
            if let status = result.exit.status,
               QuickCommand.isMissingCommand(exitStatus: status, stderr: stderrText) {
                skipped.append(SkippedCommand(commandLine: command.commandLine, reason: "not found"))
                continue
            }
            guard result.exit.status == 0 || (result.exit.status == nil && result.exit.signal == nil) else {
                let how = result.exit.signal.map { "killed by signal \($0)" } ?? "exit \(result.exit.exitCode)"
                let said = Self.summary(result.stderr)
                skipped.append(SkippedCommand(commandLine: command.commandLine,
                                              reason: said.isEmpty ? how : "\(how): \(said)"))
                continue
            }
            let parsed = Self.parse(result.stdout, kind: kind, family: command.family)
            let output = QuickCommandOutput(kind: kind, os: nil, osWasDetected: false, command: command,
                                            stdout: result.stdout, stderr: result.stderr, skipped: skipped,
                                            parsed: parsed)
            if case .failure(let error) = parsed {
                if unreadable == nil { unreadable = output }
                skipped.append(SkippedCommand(commandLine: command.commandLine,
                                              reason: "output not recognised: \(error.description)"))
                continue
            }
            return output
        }
        if let unreadable { return unreadable }
        let tried = skipped.map { "\($0.commandLine) (\($0.reason))" }.joined(separator: "; ")
        throw RemoteCommandsError(.noCommandWorked, tried,
                                  "No \(kind.rawValue) command worked on the server. Tried: \(tried). "
                                  + "Install one of them (e.g. iproute2 or net-tools) or run a command with essh exec.")
    }

    private func capture(_ line: String) throws(RemoteCommandsError)
        -> (stdout: [UInt8], stderr: [UInt8], exit: CommandExit) {
        do {
            return try shell.capture(line, input: .none, timeout: timeout, cancel: cancel)
        } catch {
            throw RemoteCommandsError(error)
        }
    }

    static func parse(_ bytes: [UInt8], kind: DataKind, family: FormatFamily) -> Result<ParsedItems, NetParseError> {
        do {
            return .success(try NetParser.parse(bytes, kind: kind, format: family))
        } catch let error as NetParseError {
            return .failure(error)
        } catch {
            let tried = InputFormat.candidates(kind: kind, family: family)
            return .failure(NetParseError(code: .unrecognised, tried: tried, underlying: "\(error)"))
        }
    }

    /// The first non-blank line of a stream, trimmed and cut to 200 characters, for messages.
    static func summary(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(4096), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty } ?? ""
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
