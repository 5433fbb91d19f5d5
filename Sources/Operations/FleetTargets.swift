import Fleet
import Inventory
import SSH

/// The servers of a fleet run as `FleetTarget`s, with the one rule for who receives the run's password.
///
/// A fleet never stops to ask in the middle: the password is given once before the run (a file, or one question
/// asked after `FleetPasswordCheck` found a server that is trusted and takes one).
/// It goes to the servers saved as logging in with a password; to destinations that are not saved servers only when
/// it came from a file (the person named both, as with `essh exec user@host --password-file F`). A server saved
/// with a key or the agent never receives it — not even when its key is refused and it offers password logins —
/// so password and keyboard-interactive logins are turned off for it.
///
/// A password server whose credential source is `vault` or `command` gets its own secret instead, fetched once
/// before the run (`ownSecrets`); one whose secret cannot be had is reported as such and not tried — never with the
/// run's shared password, nor another server's.
public enum FleetTargets {
    /// The password given for a run.
    public struct Password: Sendable {
        /// The password, if one was given.
        public var value: String?
        /// Whether it came from a file (`--password-file`) rather than a question.
        public var fromFile: Bool

        public init(_ value: String?, fromFile: Bool) {
            self.value = value
            self.fromFile = fromFile
        }

        /// No password.
        public static let none = Password(nil, fromFile: false)
    }

    /// Whether any of `profiles` needs the run's password (so it is asked once before the run, after
    /// `FleetPasswordCheck`).
    public static func needsPassword(_ profiles: [ConnectionProfile]) -> Bool {
        profiles.contains(where: receivesAskedPassword)
    }

    /// Whether `profile` would receive a password asked before the run: a server saved as logging in with one.
    public static func receivesAskedPassword(_ profile: ConnectionProfile) -> Bool {
        profile.isSaved && profile.auth == .password && profile.credential == .ask
    }

    /// Whether `profile` logs in with a secret of its own (a password server whose source is the vault or a
    /// command).
    public static func hasOwnSecret(_ profile: ConnectionProfile) -> Bool {
        profile.isSaved && profile.auth == .password && profile.credential != .ask
    }

    /// The own secrets of the servers among `profiles` that have one (`hasOwnSecret`) and whose `options` (same
    /// order; nil: all fine) were built — one with a configuration problem is not tried, so its source is not read
    /// — by index: each fetched once from its own source (`provider`: the vault, unlocked once for the run, or the
    /// server's command), or why it cannot be had.
    public static func ownSecrets(_ profiles: [ConnectionProfile],
                                  options: [Result<ConnectOptions, ConnectionProblem>]? = nil,
                                  provider: (CredentialSource) -> (any SecretProvider)?)
        -> [Int: Result<String, CredentialUnavailable>]
    {
        func built(_ index: Int) -> Bool {
            guard let options, case .failure = options[index] else { return true }
            return false
        }
        var secrets: [Int: Result<String, CredentialUnavailable>] = [:]
        for index in profiles.indices where hasOwnSecret(profiles[index]) && built(index) {
            let profile = profiles[index]
            guard let source = provider(profile.credential) else { continue }
            do throws(CredentialUnavailable) {
                secrets[index] = .success(try source.password(forServer: profile.uid))
            } catch {
                secrets[index] = .failure(error)
            }
        }
        return secrets
    }

    /// The target for `profile`, shown as `name`, with the options a single connection would use (`options`, built
    /// by `ConnectionProfile.options`) or the problem that keeps it from being tried: a connection problem
    /// (`config-error`, in the front end's words through `remedy`), what `FleetPasswordCheck` found (`checked`), or
    /// no password for a password server (`auth-failed`: no login can be tried).
    public static func target(_ profile: ConnectionProfile, name: String,
                              options: Result<ConnectOptions, ConnectionProblem>, password: Password,
                              checked: FleetTarget.Problem? = nil,
                              ownSecret: Result<String, CredentialUnavailable>? = nil,
                              remedy: (ConnectionProblem) -> String = { $0.message }) -> FleetTarget {
        var connect: ConnectOptions
        var problem: FleetTarget.Problem?
        switch options {
        case .success(let built): connect = built
        case .failure(let failure):
            connect = failure.options
            problem = FleetTarget.Problem(.configError, remedy(failure))
        }
        if let checked, problem == nil { problem = checked }
        let given: String?
        if profile.isSaved {
            switch profile.auth {
            case .password where hasOwnSecret(profile):
                switch ownSecret {
                case .success(let value)?:
                    given = value
                case .failure(let unavailable)?:
                    return FleetTarget(name: name, options: connect, problem: problem ?? FleetTarget.Problem(
                        .authFailed, "No password for this server: \(unavailable.message)"))
                case nil:
                    return FleetTarget(name: name, options: connect, problem: problem ?? FleetTarget.Problem(
                        .authFailed, "No password for this server: its \(profile.credential.text) source was not read."))
                }
            case .password:
                guard let value = password.value else {
                    return FleetTarget(name: name, options: connect, problem: problem ?? FleetTarget.Problem(
                        .authFailed, "This server logs in with a password and none was given."))
                }
                given = value
            case .key, .agent:
                given = nil
                connect.allowPassword = false
                connect.allowKeyboardInteractive = false
            }
        } else {
            given = password.fromFile ? password.value : nil
        }
        return FleetTarget(name: name, options: connect, prompter: NonInteractivePrompter(password: given, onlyFor: connect.host),
                           problem: problem)
    }
}
