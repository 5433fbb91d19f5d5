import Basics
import Foundation
import SSH

/// What `ssh-copy-id` does, once for the command line and the interface: over a session that logged in (by
/// password, usually), append a public key to the server's `~/.ssh/authorized_keys` unless the same key (type and
/// blob; comments differ) is there already, with `~/.ssh` 0700 and a new file 0600, a missing final newline of an
/// existing file added first; then prove a fresh login with that key alone works. Each step is reported.
public enum KeyInstall {
    /// What was done on the server, in order.
    public enum Step: Sendable, Equatable, CustomStringConvertible {
        /// `~/.ssh` did not exist and was made (0700).
        case madeFolder
        /// `~/.ssh/authorized_keys` did not exist and was made (0600).
        case madeFile
        /// The existing file did not end with a newline: one was added before the key's line.
        case addedNewline
        /// The key's line was appended.
        case appended
        /// The key was in the file already (same type and blob): nothing was written.
        case alreadyThere
        /// A fresh login with the key alone worked, as this identity.
        case verified(LoginIdentity)

        public var description: String {
            switch self {
            case .madeFolder: return "made ~/.ssh (mode 700)"
            case .madeFile: return "made ~/.ssh/authorized_keys (mode 600)"
            case .addedNewline: return "added the newline missing at the end of ~/.ssh/authorized_keys"
            case .appended: return "appended the key to ~/.ssh/authorized_keys"
            case .alreadyThere: return "the key is in ~/.ssh/authorized_keys already: nothing written"
            case .verified(let identity): return "logged in again with the \(identity) alone"
            }
        }
    }

    /// The POSIX sh script that appends `key` (run by `sh -c`, whatever the login shell). It prints one
    /// `essh-key: WORD` line per step (`Step`'s names) and exits 0, or non-zero with the failing command's message on
    /// stderr. The key goes in as shell-quoted words (`ShellQuoting`), never spliced into code.
    public static func script(_ key: PublicKey) -> String {
        """
        umask 077
        t=\(ShellQuoting.quote(key.type)); b=\(ShellQuoting.quote(key.base64)); line=\(ShellQuoting.quote(key.line))
        d="${HOME:?HOME is not set}/.ssh"; f="$d/authorized_keys"
        if [ ! -d "$d" ]; then mkdir -m 700 "$d" || exit 3; echo 'essh-key: madeFolder'; fi
        has='{ for (i = 1; i < NF; i++) if ($i == t && $(i + 1) == b) found = 1 } END { exit !found }'
        if [ -f "$f" ] && awk -v t="$t" -v b="$b" "$has" "$f"; then echo 'essh-key: alreadyThere'; exit 0; fi
        if [ ! -e "$f" ]; then (: > "$f") && chmod 600 "$f" || exit 4; echo 'essh-key: madeFile'; fi
        if [ -s "$f" ] && [ -n "$(tail -c 1 "$f")" ]; then printf '\\n' >> "$f" || exit 5; echo 'essh-key: addedNewline'; fi
        printf '%s\\n' "$line" >> "$f" || exit 6
        if command -v restorecon >/dev/null 2>&1; then restorecon -F "$d" "$f" >/dev/null 2>&1; fi
        echo 'essh-key: appended'
        """
    }

    /// The exec request's command: the script under `sh`, so a fish or csh login shell runs it too.
    public static func command(_ key: PublicKey) -> String {
        "exec sh -c " + ShellQuoting.quote(script(key))
    }

    /// The steps the script's output reports, in order.
    public static func steps(fromOutput output: String) -> [Step] {
        output.split(separator: "\n").compactMap { line -> Step? in
            switch line.trimmingCharacters(in: .whitespaces) {
            case "essh-key: madeFolder": return .madeFolder
            case "essh-key: madeFile": return .madeFile
            case "essh-key: addedNewline": return .addedNewline
            case "essh-key: appended": return .appended
            case "essh-key: alreadyThere": return .alreadyThere
            default: return nil
            }
        }
    }

    /// Appends `key` on the server `session` is logged in to (see `script`); returns the steps taken, or throws
    /// what went wrong (the server's message).
    public static func append(_ key: PublicKey, session: SSHSession, cancel: Cancellation? = nil) throws -> [Step] {
        let result = try session.capture(command(key), timeout: 30, cancel: cancel)
        let steps = steps(fromOutput: String(decoding: result.stdout, as: UTF8.self))
        guard result.exit.status == 0, steps.contains(.appended) || steps.contains(.alreadyThere) else {
            let said = String(decoding: result.stderr, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw KeyProblem(.installFailed, "The key could not be added to ~/.ssh/authorized_keys on "
                             + "\(session.user)@\(session.host)" + (said.isEmpty ? "" : ": \(said)")
                             + " (exit \(result.exit.status.map(String.init) ?? "unknown")).")
        }
        return steps
    }

    /// `options` changed to log in with `key` alone: the private key file `privateKey` (beside the .pub), or the
    /// agent's key with `key`'s fingerprint when there is no file; no password, no keyboard-interactive.
    public static func keyOnly(_ options: ConnectOptions, key: PublicKey, privateKey: String?) -> ConnectOptions {
        var o = options
        o.allowPassword = false
        o.allowKeyboardInteractive = false
        if let privateKey {
            o.identityFiles = [privateKey]
            o.useAgent = false
            o.preferredIdentity = .keyFile(path: privateKey)
        } else {
            o.identityFiles = []
            o.useAgent = true
            o.preferredIdentity = .agentKey(fingerprint: key.fingerprint)
        }
        return o
    }

    /// Logs in afresh with `key` alone (`keyOnly`) and returns the identity that did, or throws why not. A login
    /// with another key (an agent's) does not count: the identity must carry `key`'s fingerprint.
    public static func verify(_ options: ConnectOptions, key: PublicKey, privateKey: String?, prompter: Prompter,
                              cancel: Cancellation? = nil) throws -> LoginIdentity {
        let session: SSHSession
        do {
            session = try SSHSession.connect(keyOnly(options, key: key, privateKey: privateKey), prompter: prompter,
                                             cancel: cancel)
        } catch {
            throw KeyProblem(.verifyFailed, "The key was added, but a login with it alone failed: \(error.message)")
        }
        defer { session.disconnect() }
        let identity = session.loginIdentity
        guard identity.fingerprint == key.fingerprint else {
            throw KeyProblem(.verifyFailed, "The key was added, but the check logged in with another one (\(identity)) "
                             + "instead of \(key.fingerprint).")
        }
        return identity
    }
}
