import Fleet
import Foundation
import Inventory
import Operations
import SSH
import Synchronization
import Testing

/// The one rule for who receives a fleet run's password.
@Suite struct FleetTargetsTests {
    func saved(_ name: String, _ auth: AuthMethod) -> ConnectionProfile {
        ConnectionProfile(server: Server(name: name, host: name, auth: auth, keyPath: auth == .key ? "/k" : nil))
    }

    func options(_ profile: ConnectionProfile) -> Result<ConnectOptions, ConnectionProblem> {
        .success(ConnectOptions(host: profile.host, port: profile.port, user: "u", knownHostsFile: "/kh"))
    }

    func target(_ profile: ConnectionProfile, _ password: FleetTargets.Password) -> FleetTarget {
        FleetTargets.target(profile, name: profile.name ?? profile.host, options: options(profile),
                            password: password)
    }

    @Test func onlyServersSavedWithAPasswordGetIt() {
        let given = FleetTargets.Password("s3cret", fromFile: false)
        let pw = target(saved("a", .password), given)
        #expect(pw.prompter.password(user: "u", host: "a", attempt: 1) == "s3cret")
        #expect(pw.options.allowPassword && pw.problem == nil)
        for auth in [AuthMethod.key, .agent] {
            let t = target(saved("b", auth), given)
            #expect(t.prompter.password(user: "u", host: "b", attempt: 1) == nil)
            #expect(!t.options.allowPassword && !t.options.allowKeyboardInteractive)
        }
    }

    @Test func aTypedDestinationGetsThePasswordOnlyFromAFile() {
        let typed = ConnectionProfile(host: "10.1.1.1")
        let asked = target(typed, FleetTargets.Password("p", fromFile: false))
        #expect(asked.prompter.password(user: "u", host: "10.1.1.1", attempt: 1) == nil)
        let fromFile = target(typed, FleetTargets.Password("p", fromFile: true))
        #expect(fromFile.prompter.password(user: "u", host: "10.1.1.1", attempt: 1) == "p")
        // Only the destination's: a jump host on the way asking for a password gets none.
        #expect(fromFile.prompter.password(user: "u", host: "bastion", attempt: 1) == nil)
    }

    @Test func aPasswordServerWithoutAPasswordIsNotTried() {
        let t = target(saved("a", .password), .none)
        #expect(t.problem == FleetTarget.Problem(.authFailed, "This server logs in with a password and none was given."))
    }

    @Test func aProblemKeepsTheServerWithTheFrontEndsRemedy() {
        let profile = saved("k", .key)
        let problem: ConnectionProblem
        do {
            _ = try profile.options(context: .init(environment: ["HOME": "/nonexistent"], localUser: "u"))
            Issue.record("a missing key must be a problem")
            return
        } catch {
            problem = error
        }
        let t = FleetTargets.target(profile, name: "k", options: .failure(problem), password: .none,
                                    remedy: { "fix: " + $0.detail })
        #expect(t.problem == FleetTarget.Problem(.configError, "fix: /k"))
        #expect(t.options.host == "k")
    }

    @Test func anAskPolicyBecomesStrictAndThePasswordIsAskedOnlyWhenNeeded() {
        var profile = saved("a", .agent)
        var options = ConnectOptions(host: "a", user: "u", knownHostsFile: "/kh")
        options.hostKeyPolicy = .ask
        let t = FleetTargets.target(profile, name: "a", options: .success(options), password: .none)
        #expect(t.options.hostKeyPolicy == .strict)
        #expect(!FleetTargets.needsPassword([profile, ConnectionProfile(host: "x")]))
        profile.auth = .password
        #expect(FleetTargets.needsPassword([profile]))
    }
}

/// Before a fleet run asks for its password, the servers that would receive it are checked: the password is asked
/// only when one is left that is trusted and takes a password.
@Suite struct FleetPasswordCheckTests {
    /// Answers the check per server name: a probe that succeeds (the server takes a password) or fails as given.
    final class Probe: FleetExecutor {
        let failures: [String: SSHError]
        let seen = Mutex<[String]>([])

        init(failures: [String: SSHError]) { self.failures = failures }

        func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                     cancel: Cancellation, output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void)
            throws(FleetFailure) -> CommandExit
        {
            seen.withLock { $0.append(target.name) }
            if let error = failures[target.name] { throw FleetFailure(.connect, error) }
            return CommandExit(status: 0, signal: nil)
        }
    }

    func saved(_ name: String, _ auth: AuthMethod) -> ConnectionProfile {
        ConnectionProfile(server: Server(name: name, host: name, auth: auth, keyPath: auth == .key ? "/k" : nil))
    }

    func check(_ profiles: [ConnectionProfile], _ probe: Probe) -> FleetPasswordCheck.Outcome {
        let options = profiles.map { profile -> Result<ConnectOptions, ConnectionProblem> in
            .success(ConnectOptions(host: profile.host, user: "u", knownHostsFile: "/kh"))
        }
        return FleetPasswordCheck(options: .init(parallel: 2, timeout: 5), executor: probe)
            .run(profiles, names: profiles.map { $0.name ?? $0.host }, options: options)
    }

    @Test func onlyThePasswordServersAreCheckedAndTheirFailuresAreKept() {
        let unknown = SSHError(.hostKeyUnknown, "", "The host key of pw1 is not known.")
        let probe = Probe(failures: ["pw1": unknown])
        let outcome = check([saved("key", .key), saved("pw1", .password), saved("pw2", .password),
                             ConnectionProfile(host: "typed")], probe)
        #expect(probe.seen.withLock { $0.sorted() } == ["pw1", "pw2"])
        #expect(outcome.problems == [1: FleetTarget.Problem(.hostKeyUnknown, unknown.message)])
        #expect(outcome.remaining == 1 && outcome.needsPassword)
    }

    @Test func noPasswordIsNeededWhenNoPasswordServerIsLeft() {
        let probe = Probe(failures: [
            "pw1": SSHError(.hostKeyChanged, "", "changed"),
            "pw2": SSHError(.authenticationFailed, "", PasswordLoginProbe.refusal(["publickey"], user: "u", host: "pw2")!),
        ])
        let outcome = check([saved("pw1", .password), saved("pw2", .password)], probe)
        #expect(!outcome.needsPassword)
        #expect(outcome.problems[0]?.status == .hostKeyChanged && outcome.problems[1]?.status == .authFailed)
        #expect(outcome.problems[1]?.message == "pw2 allows u no password login (only publickey), so the password "
                    + "was not asked for it.")
        // Nothing to check: nothing is asked either.
        #expect(!check([saved("k", .key)], Probe(failures: [:])).needsPassword)
    }

    @Test func aCheckedProblemBecomesTheTargetsResult() {
        let problem = FleetTarget.Problem(.hostKeyUnknown, "unknown")
        let t = FleetTargets.target(saved("pw", .password), name: "pw",
                                    options: .success(ConnectOptions(host: "pw", user: "u", knownHostsFile: "/kh")),
                                    password: .none, checked: problem)
        #expect(t.problem == problem)
        #expect(PasswordLoginProbe.refusal(["publickey", "keyboard-interactive"], user: "u", host: "h") == nil)
        #expect(PasswordLoginProbe.refusal(["password"], user: "u", host: "h") == nil)
    }
}
