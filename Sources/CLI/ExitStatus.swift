import Basics
import Forwarding
import Inventory
import Mail
import Operations
import NetParsers
import Reachability
import RemoteCommands
import SSH
import Team
import Transfer
import Vault

/// The one exit-status table of every essh command: each way a command can end has one code, whatever the command.
/// `essh --help` prints it (`helpText`) and README lists it; a test keeps both equal to this enum. Besides these,
/// `exec` and `shell` end with the remote command's own status (128+N when signal N killed it), as ssh does.
package enum ExitStatus: Int32, CaseIterable, Sendable {
    case ok = 0
    case failed = 1
    case badInput = 2
    case database = 3
    case usage = 64
    case outputFailed = 74
    case tempFailure = 75
    case timedOut = 124
    case interrupted = 130
    case brokenPipe = 141
    case connection = 255

    /// What the status means, one short line (`essh --help` and README's table show exactly this).
    package var meaning: String {
        switch self {
        case .ok: return "done"
        case .failed: return "the command ran and did not succeed, or cannot run here"
        case .badInput: return "something named or set cannot be used (a name, file, value, setting)"
        case .database: return "the database cannot be used"
        case .usage: return "the command line is wrong; the usage is shown"
        case .outputFailed: return "the output could not be written"
        case .tempFailure: return "not done now; try again later"
        case .timedOut: return "--timeout stopped the command"
        case .interrupted: return "interrupted (Ctrl-C, SIGTERM, SIGHUP)"
        case .brokenPipe: return "the reader of the output went away"
        case .connection: return "connecting or logging in failed, or the connection was lost"
        }
    }

    /// When a command ends so (README's table shows exactly this beside `meaning`).
    package var examples: String {
        switch self {
        case .ok: return "every checked server online; every server of a fleet run exited 0; the mail sent"
        case .failed:
            return "`check`: a server is not online; `exec` on several servers: one did not exit 0; `net`, `parse`: "
                + "no command worked, or the output is in no known layout; `mail`: neither sent nor kept; `cp`: a file "
                + "failed or was skipped, or its sha256 differs; `shell` "
                + "or the interface without a terminal, the interface on one that cannot move the cursor (`TERM=dumb`)"
        case .badInput:
            return "an unknown server or tag; a missing or unreadable FILE, key, password file or ssh_config; a "
                + "missing source of `cp`; an invalid server field; a wrong setting (`mail.from`)"
        case .database: return "damaged, written by a newer eSSH, read-only, locked by another program, an I/O error"
        case .usage:
            return "an unknown option; a missing or malformed argument (a DEST that is not `[user@]host[:port]`); "
                + "options that do not go together; `cp` with a server on both sides or on neither"
        case .outputFailed: return "a full disk"
        case .tempFailure:
            return "`mail`, `exec --mail`: the mail is kept in the outbox (`essh mail --retry`); `exec` on several "
                + "servers: the memory or open-file limits leave room for none"
        case .timedOut: return "`exec`, `net`: the command was stopped on the server"
        case .interrupted: return "a fleet run still prints what finished"
        case .brokenPipe: return "`essh servers list | head -1`"
        case .connection:
            return "as ssh: refused, unreachable, no such host, an unknown or changed host key, authentication failed"
        }
    }

    /// `exec` and `shell` besides the table.
    package static let remoteStatus = "exec and shell: else the remote command's status (128+N: signal N)"

    /// The table as `essh --help` prints it: a heading, then `  CODE  MEANING`, one status a line (each within 80
    /// columns, so ArgumentParser's wrapping leaves the rows whole).
    package static var helpText: String {
        let rows = allCases.map { status in
            let code = String(status.rawValue)
            return "  " + code + String(repeating: " ", count: 5 - code.count) + status.meaning
        }
        return (["Exit status, the same for every command:"] + rows + ["  " + remoteStatus + "."])
            .joined(separator: "\n")
    }

    /// How a command that threw `error` ends: the one mapping of every module's errors to this table.
    package init(for error: any Error) {
        switch error {
        case let failure as CommandFailure:
            self = failure.status
        case let error as InventoryError:
            switch error.kind {
            case .newerDatabase, .notEsshDatabase, .corrupt, .readOnly, .locked, .io, .sqlite: self = .database
            case .unknownServer, .duplicateName, .invalidName, .invalidPort, .invalidHost, .invalidValue, .sshConfig:
                self = .badInput
            case .teamReadOnly, .notLinked: self = .badInput
            }
        case let error as SSHError:
            self = Self(for: error)
        case let error as ForwardError:
            switch error.kind {
            case .badSpec: self = .usage
            case .portInUse, .bind: self = .badInput
            case .remoteRefused: self = .failed
            case .connection: self = error.ssh.map { Self(for: $0) } ?? .connection
            }
        case let error as KeyProblem:
            switch error.kind {
            case .notAPublicKey, .noKey, .badRequest: self = .badInput
            case .installFailed, .verifyFailed, .generateFailed: self = .failed
            }
        case let error as RemoteCommandsError:
            self = error.ssh.map { Self(for: $0) } ?? .failed
        case let error as MailError:
            switch error.kind {
            case .invalidAddress, .headerInjection, .io: self = .badInput
            case .sendmailMissing, .sendmailFailed: self = .failed
            }
        case let error as TransferError:
            switch error.kind {
            case .usage: self = .usage
            case .badInput: self = .badInput
            case .connection: self = .connection
            case .remoteFile, .localFile: self = .failed
            case .cancelled: self = .interrupted
            }
        case let error as ReachabilityError:
            self = error.kind == .invalidOption ? .badInput : .failed
        case let error as VaultError:
            switch error {
            case .passphraseCommand, .agent: self = .failed
            default: self = .badInput
            }
        case let error as TeamError:
            switch error.kind {
            case .connect, .connectionLost, .needsPassword, .authenticationFailed, .tls: self = .connection
            case .badURL, .noSchema, .schemaTooNew, .notInTeam, .notLinked: self = .badInput
            case .permission, .statement, .library: self = .failed
            case .cache: self = .database
            }
        case is FileSystemError:
            self = .badInput
        case is NetParseError:
            self = .failed
        default:
            self = FileSystemError(error) == nil ? .failed : .badInput
        }
    }

    /// A session's failure: interrupted, its command's time out, or the connection.
    package init(for error: SSHError) {
        switch error.kind {
        case .cancelled: self = .interrupted
        case .commandTimedOut: self = .timedOut
        default: self = .connection
        }
    }
}
