import Fleet
import Inventory
import Operations
import SSH
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
        #expect(asked.prompter.password(user: "u", host: "h", attempt: 1) == nil)
        let fromFile = target(typed, FleetTargets.Password("p", fromFile: true))
        #expect(fromFile.prompter.password(user: "u", host: "h", attempt: 1) == "p")
    }

    @Test func aPasswordServerWithoutAPasswordIsNotTried() {
        let t = target(saved("a", .password), .none)
        #expect(t.problem == "This server logs in with a password and none was given.")
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
        #expect(t.problem == "fix: /k")
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
