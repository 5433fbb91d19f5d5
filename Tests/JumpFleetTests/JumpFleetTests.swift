import Fleet
import Foundation
import Operations
import Reachability
import SSH
import Synchronization
import Testing
import TestSupport

/// Options for one sshd of the jump topology, trusting the topology's host keys.
func hop(_ s: TestServers, _ server: TestServers.NamespaceServer, port: Int? = nil, name: String? = nil,
         knownHosts: String? = nil) -> ConnectOptions {
    var o = ConnectOptions(host: server.host, port: port ?? server.port, user: s.user,
                           knownHostsFile: knownHosts ?? s.jump.knownHosts)
    o.globalKnownHostsFiles = []
    o.identityFiles = [s.key("id_ed25519")]
    o.useAgent = false
    o.allowPassword = false
    o.connectTimeout = 5
    o.name = name
    return o
}

/// A bastion of the test's own in b1's namespace (its own log to count logins; killable), its key accepted.
struct OwnBastion {
    let sshd: NamespaceSSHD
    let dir: TempDir
    let options: ConnectOptions

    init(_ s: TestServers, extra: [String] = []) throws {
        sshd = try NamespaceSSHD(s.jump.b1, servers: s, extra: extra)
        dir = try TempDir()
        try FileManager.default.copyItem(atPath: s.jump.knownHosts, toPath: dir.file("known_hosts"))
        var o = hop(s, s.jump.b1, port: sshd.port, name: "bastion", knownHosts: dir.file("known_hosts"))
        o.hostKeyPolicy = .acceptNew
        options = o
    }

    func stop() {
        sshd.stop()
        dir.cleanup()
    }
}

/// `server` behind `jumps`.
func behind(_ jumps: [ConnectOptions], _ s: TestServers, _ server: TestServers.NamespaceServer,
            port: Int? = nil) -> ConnectOptions {
    var o = hop(s, server, port: port)
    o.jumps = jumps
    return o
}

/// The harness's main sshd, reached directly.
func direct(_ s: TestServers) -> ConnectOptions {
    var o = ConnectOptions(host: s.host, port: s.port, user: s.user, knownHostsFile: s.knownHosts)
    o.globalKnownHostsFiles = []
    o.identityFiles = [s.key("id_ed25519")]
    o.useAgent = false
    o.allowPassword = false
    o.connectTimeout = 5
    return o
}

/// `Accepted` lines in an sshd log.
func acceptedLogins(_ log: String) -> Int {
    let text = (try? Data(contentsOf: URL(fileURLWithPath: log))).map { String(decoding: $0, as: UTF8.self) } ?? ""
    // sshd ends its lines with \r\n, one Character in Swift.
    return text.split(whereSeparator: \.isNewline)
        .filter { $0.contains("Accepted ") && $0.contains(" for ") }.count
}

/// `count()` once it reaches `expected` (sshd writes its log lines as it goes; give them a moment), else its last value.
func settled(_ expected: Int, _ count: () -> Int) -> Int {
    let deadline = Date() + 5
    var value = count()
    while value < expected && Date() < deadline {
        usleep(50_000)
        value = count()
    }
    return value
}

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Suite(.serialized) struct JumpFleetTests {
    @Test func aFleetRunBehindOneBastionLogsInToItOnce() throws {
        let s = try TestServers.require()
        let bastion = try OwnBastion(s)
        defer { bastion.stop() }
        let t1Before = acceptedLogins(s.jump.t1.log)
        // The issue's figure: 50 targets behind one bastion, one bastion login.
        let targets = (0..<50).map { FleetTarget(name: "t1-\($0)", options: behind([bastion.options], s, s.jump.t1)) }
        let results = FleetRunner(options: .init(parallel: 10, timeout: 60))
            .run(targets, command: "echo \"$SSH_CONNECTION\" | cut -d' ' -f3")
        for result in results {
            #expect(result.status == .ok, "\(result.name): \(result.error ?? "")")
            #expect(text(result.stdout) == "\(s.jump.t1.host)\n")
        }
        #expect(results.count == 50)
        // Other suites log in to t1 at the same time: at least these fifty.
        #expect(settled(50) { acceptedLogins(s.jump.t1.log) - t1Before } >= 50)
        #expect(bastion.sshd.acceptedLogins == 1)
    }

    @Test func twoChainsInOneRunLogInOncePerChain() throws {
        let s = try TestServers.require()
        let bastion = try OwnBastion(s)
        defer { bastion.stop() }
        // A second bastion of the test's own in b2's namespace, so its logins are counted exactly.
        let b2 = try NamespaceSSHD(s.jump.b2, servers: s)
        defer { b2.stop() }
        var b2Hop = hop(s, s.jump.b2, port: b2.port, name: "b2", knownHosts: bastion.dir.file("known_hosts"))
        b2Hop.hostKeyPolicy = .acceptNew
        let viaB2 = [bastion.options, b2Hop]
        var targets = (0..<5).map { FleetTarget(name: "t1-\($0)", options: behind([bastion.options], s, s.jump.t1)) }
        targets += (0..<5).map { FleetTarget(name: "t2-\($0)", options: behind(viaB2, s, s.jump.t2)) }
        let results = FleetRunner(options: .init(parallel: 10, timeout: 30)).run(targets, command: "hostname -I")
        for result in results {
            #expect(result.status == .ok, "\(result.name): \(result.error ?? "")")
            let expected = result.name.hasPrefix("t1") ? s.jump.t1.host : s.jump.t2.host
            #expect(text(result.stdout).contains(expected), "\(result.name): \(text(result.stdout))")
        }
        // Chain b1 → t1: one login on b1. Chain b1 → b2 → t2: its own session to b1, carrying one login on b2.
        #expect(settled(2) { bastion.sshd.acceptedLogins } == 2)
        #expect(settled(1) { b2.acceptedLogins } == 1)
    }

    @Test func aBastionThatIsDownFailsEveryTargetBehindItWithItsNamedErrorAndNoOther() throws {
        let s = try TestServers.require()
        // Nothing listens on t1's closed port number at b1's address.
        let down = hop(s, s.jump.b1, port: s.jump.t1ClosedPort, name: "bastion")
        var targets = (0..<6).map { FleetTarget(name: "t1-\($0)", options: behind([down], s, s.jump.t1)) }
        targets.append(FleetTarget(name: "direct", options: direct(s)))
        let started = Date()
        let results = FleetRunner(options: .init(parallel: 3, timeout: 30)).run(targets, command: "echo up")
        #expect(Date().timeIntervalSince(started) < 10)
        for result in results.dropLast() {
            #expect(result.status == .refused, "\(result.name): \(result.status)")
            #expect(result.error?.hasPrefix("bastion (\(s.jump.b1.host):\(s.jump.t1ClosedPort)) refused the "
                                            + "connection") == true, "\(result.error ?? "")")
        }
        #expect(results.last?.status == .ok)
        #expect(text(results.last?.stdout ?? []) == "up\n")
    }

    @Test func aBastionWithAWrongKeyIsNamedForEveryTargetAsAuthFailed() throws {
        let s = try TestServers.require()
        var wrong = hop(s, s.jump.b1, name: "bastion")
        wrong.identityFiles = [s.key("id_unauthorized")]
        let targets = (0..<3).map { FleetTarget(name: "t1-\($0)", options: behind([wrong], s, s.jump.t1)) }
        let results = FleetRunner(options: .init(parallel: 3, timeout: 30)).run(targets, command: "true")
        for result in results {
            #expect(result.status == .authFailed)
            #expect(result.error?.hasPrefix("bastion (\(s.jump.b1.host):\(s.jump.b1.port)): permission denied.")
                    == true, "\(result.error ?? "")")
        }
    }

    @Test func theBastionKilledMidRunEndsEveryTargetWithAClearErrorWithoutHanging() throws {
        let s = try TestServers.require()
        let bastion = try OwnBastion(s)
        defer { bastion.stop() }
        let targets = (0..<8).map { FleetTarget(name: "t1-\($0)", options: behind([bastion.options], s, s.jump.t1)) }
        // Four run at once; the other four start only after the bastion is gone.
        let runner = FleetRunner(options: .init(parallel: 4, timeout: 60))
        let started = Mutex(0)
        DispatchQueue.global().async {
            let deadline = Date() + 20
            while started.withLock({ $0 }) < 4 && Date() < deadline { usleep(20_000) }
            usleep(500_000)
            bastion.sshd.killAll(SIGKILL)
        }
        let begun = Date()
        let results = runner.run(targets, command: "sleep 30", onStart: { _ in started.withLock { $0 += 1 } })
        #expect(Date().timeIntervalSince(begun) < 15)
        for result in results {
            #expect(result.status != .ok && result.status != .timedOut, "\(result.name): \(result.status)")
            #expect(result.error?.contains("bastion") == true, "\(result.name): \(result.error ?? "")")
        }
        // The ones that were running lost their connection, the later ones were told the bastion was lost.
        #expect(results.contains { $0.error?.hasPrefix("The connection to bastion was lost") == true })
    }

    @Test func theCheckBeforeAPasswordCostsOneBastionLogin() throws {
        let s = try TestServers.require()
        let bastion = try OwnBastion(s)
        defer { bastion.stop() }
        let targets = (0..<6).map { FleetTarget(name: "t1-\($0)", options: behind([bastion.options], s, s.jump.t1)) }
        let results = FleetRunner(executor: PasswordLoginProbe(), options: .init(parallel: 6, timeout: 30))
            .run(targets, command: "")
        // t1 takes passwords: every target would receive one.
        #expect(results.allSatisfy { $0.status == .ok }, "\(results.map { $0.error ?? "" })")
        #expect(bastion.sshd.acceptedLogins == 1)
    }

    // MARK: - Online checks

    @Test func checksThroughTheBastionSayWhatItSawAndWhichHopWasUsed() throws {
        let s = try TestServers.require()
        let bastion = hop(s, s.jump.b1, name: "bastion")
        let check = try OnlineCheck(options: .init(timeout: 1.5), sessionsPerBastion: 2)
        let targets = [
            OnlineCheck.Target(host: s.jump.t1.host, port: s.jump.t1.port, jumps: [bastion]),
            OnlineCheck.Target(host: s.jump.t1.host, port: s.jump.t1ClosedPort, jumps: [bastion]),
            OnlineCheck.Target(host: s.jump.t1.host, port: s.jump.t1SilentPort, jumps: [bastion]),
            OnlineCheck.Target(host: s.host, port: s.port),
        ]
        let heard = Mutex<[Int]>([])
        let started = Date()
        let outcomes = try check.check(targets) { outcome in heard.withLock { $0.append(outcome.index) } }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(Set(heard.withLock { $0 }) == [0, 1, 2, 3])
        #expect(outcomes.map(\.index) == [0, 1, 2, 3])
        #expect(outcomes[0].status == .online)
        #expect(outcomes[0].banner?.hasPrefix("SSH-2.0-OpenSSH") == true)
        #expect(outcomes[0].via == "bastion")
        #expect(outcomes[1].status == .refused)
        #expect(outcomes[1].error == "connection refused (seen from bastion)")
        #expect(outcomes[1].via == "bastion")
        #expect(outcomes[2].status == .timeout)
        #expect(outcomes[2].error == "no answer within 1.5 s (through bastion)", "\(outcomes[2].error ?? "")")
        #expect(outcomes[3].status == .online)
        #expect(outcomes[3].via == nil)
    }

    @Test func aBastionForbiddingForwardingIsNamedInTheCheck() throws {
        let s = try TestServers.require()
        let bastion = hop(s, s.jump.b1, port: s.jump.b1NoForwardingPort, name: "bastion")
        let outcomes = try OnlineCheck(options: .init(timeout: 2)).check([
            OnlineCheck.Target(host: s.jump.t1.host, port: s.jump.t1.port, jumps: [bastion]),
        ])
        #expect(outcomes[0].status == .unreachable)
        #expect(outcomes[0].error?.hasPrefix("bastion accepted, but it may not open a connection to "
                                             + "\(s.jump.t1.host):\(s.jump.t1.port) (administratively prohibited)")
                == true, "\(outcomes[0].error ?? "")")
        #expect(outcomes[0].via == "bastion")
    }

    @Test func aBastionThatIsDownMakesEveryServerBehindItUnreachableNamingIt() throws {
        let s = try TestServers.require()
        let down = hop(s, s.jump.b1, port: s.jump.t1ClosedPort, name: "bastion")
        let outcomes = try OnlineCheck(options: .init(timeout: 2)).check((0..<3).map { _ in
            OnlineCheck.Target(host: s.jump.t1.host, port: s.jump.t1.port, jumps: [down])
        })
        for outcome in outcomes {
            #expect(outcome.status == .unreachable)
            #expect(outcome.error?.hasPrefix("bastion (\(s.jump.b1.host):\(s.jump.t1ClosedPort)) refused the "
                                             + "connection") == true, "\(outcome.error ?? "")")
        }
    }

    @Test func checksThroughOneBastionSessionWaitForTheirSilentServersTogether() throws {
        let s = try TestServers.require()
        let bastion = try OwnBastion(s)
        defer { bastion.stop() }
        // Twenty silent servers take one timeout through one session: their opens are in flight side by side
        // (libssh2 patch 0003). One at a time they took twenty.
        var targets = (0..<20).map { _ in
            OnlineCheck.Target(host: s.jump.t1.host, port: s.jump.t1SilentPort, jumps: [bastion.options])
        }
        targets += (0..<6).map { _ in
            OnlineCheck.Target(host: s.jump.t1.host, port: s.jump.t1.port, jumps: [bastion.options])
        }
        targets += (0..<4).map { _ in
            OnlineCheck.Target(host: s.jump.t1.host, port: s.jump.t1ClosedPort, jumps: [bastion.options])
        }
        #expect(ChannelRelay.opensSideBySide)
        let started = Date()
        let outcomes = try OnlineCheck(options: .init(timeout: 1)).check(targets)
        let took = Date().timeIntervalSince(started)
        #expect(outcomes.prefix(20).allSatisfy { $0.status == .timeout })
        #expect(outcomes.dropFirst(20).prefix(6).allSatisfy { $0.status == .online })
        #expect(outcomes.suffix(4).allSatisfy { $0.status == .refused })
        #expect(took < 5, "took \(took) s")
        #expect(settled(1) { bastion.sshd.acceptedLogins } == 1)
    }

    @Test func checksSpreadOverTheSessionsAskedForLoggedInOneAfterAnother() throws {
        let s = try TestServers.require()
        let bastion = try OwnBastion(s)
        defer { bastion.stop() }
        // A session per 1,000 servers: 1,200 servers behind one chain log in twice, every one with its status.
        let targets = (0..<1200).map { i in
            OnlineCheck.Target(host: s.jump.t1.host, port: i % 2 == 0 ? s.jump.t1ClosedPort : s.jump.t1SilentPort,
                               jumps: [bastion.options])
        }
        let outcomes = try OnlineCheck(options: .init(timeout: 1), sessionsPerBastion: 2).check(targets)
        #expect(outcomes.enumerated().allSatisfy { i, o in o.status == (i % 2 == 0 ? .refused : .timeout) })
        #expect(settled(2) { bastion.sshd.acceptedLogins } == 2)
    }

    @Test func aTwoHopCheckGoesThroughTheLastBastion() throws {
        let s = try TestServers.require()
        let chain = [hop(s, s.jump.b1, name: "b1"), hop(s, s.jump.b2, name: "b2")]
        let outcomes = try OnlineCheck(options: .init(timeout: 3)).check([
            OnlineCheck.Target(host: s.jump.t2.host, port: s.jump.t2.port, jumps: chain),
        ])
        #expect(outcomes[0].status == .online, "\(outcomes[0].error ?? "")")
        #expect(outcomes[0].via == "b2")
    }
}
