import Crypto
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import SSH

/// Options for one sshd of the jump topology, trusting the topology's host keys.
func hop(_ s: TestServers, _ server: TestServers.NamespaceServer, port: Int? = nil, name: String? = nil,
         key: String? = "id_ed25519") -> ConnectOptions {
    var o = ConnectOptions(host: server.host, port: port ?? server.port, user: s.user, knownHostsFile: s.jump.knownHosts)
    o.globalKnownHostsFiles = []
    o.identityFiles = key.map { [s.key($0)] } ?? []
    o.useAgent = false
    o.allowPassword = false
    o.connectTimeout = 5
    o.name = name
    return o
}

/// t1 through b1 (named "bastion").
func t1ViaBastion(_ s: TestServers, bastionPort: Int? = nil) -> ConnectOptions {
    var o = hop(s, s.jump.t1)
    o.jumps = [hop(s, s.jump.b1, port: bastionPort, name: "bastion")]
    return o
}

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// Records the hosts a password was asked for.
private final class HostRecordingPrompter: Prompter, Sendable {
    let password: String
    let asked = Mutex<[String]>([])
    init(password: String) { self.password = password }
    func confirmHostKey(_ question: HostKeyQuestion) -> HostKeyDecision {
        asked.withLock { $0.append("hostkey \(question.host):\(question.port)") }
        return .acceptOnce
    }
    func password(user: String, host: String, attempt: Int) -> String? {
        asked.withLock { $0.append("password \(user)@\(host)") }
        return attempt == 1 ? password : nil
    }
    func passphrase(keyFile: String, attempt: Int) -> String? { nil }
    func keyboardInteractive(name: String, instruction: String, prompts: [(text: String, echo: Bool)]) -> [String]? {
        nil
    }
}

@Suite(.serialized) struct JumpHostTests {
    @Test func execThroughOneHopArrivesFromTheBastion() throws {
        let s = try TestServers.require()
        let stages = Mutex<[HopStage]>([])
        let session = try SSHSession.connect(t1ViaBastion(s), onHopStage: { stage in stages.withLock { $0.append(stage) } })
        defer { session.disconnect() }
        let r = try session.capture("echo $SSH_CONNECTION")
        let fields = text(r.stdout).split(separator: " ")
        // The target sees the bastion's address on their shared link as the client, and itself at t1:2200.
        #expect(fields.count == 4 && fields[2] == s.jump.t1.host && fields[3] == "\(s.jump.t1.port)\n")
        #expect(session.jumpHosts == ["bastion"])
        let seen = stages.withLock { $0 }
        #expect(seen.first?.hop == 0 && seen.first?.name == "bastion" && seen.first?.hops == 2)
        #expect(seen.contains { $0.hop == 1 && $0.stage == .verifyingHostKey && $0.name == s.jump.t1.host })
        #expect(seen.contains { $0.hop == 1 && $0.stage == .connecting(address: "\(s.jump.t1.host):2200 through bastion") })
    }

    @Test func execThroughTwoHops() throws {
        let s = try TestServers.require()
        var o = hop(s, s.jump.t2)
        o.jumps = [hop(s, s.jump.b1, name: "b1"), hop(s, s.jump.b2, name: "b2")]
        let session = try SSHSession.connect(o)
        let r = try session.capture("echo $SSH_CONNECTION; echo err >&2; exit 3")
        #expect(text(r.stdout).contains(" \(s.jump.t2.host) 22"))
        #expect(text(r.stderr) == "err\n")
        #expect(r.exit.status == 3)
        #expect(session.jumpHosts == ["b1", "b2"])
        session.disconnect()
        #expect(!session.isConnected)
    }

    @Test func aJumpHostsOwnJumpsComeFirst() throws {
        let s = try TestServers.require()
        var b2 = hop(s, s.jump.b2, name: "b2")
        b2.jumps = [hop(s, s.jump.b1, name: "b1")]
        var o = hop(s, s.jump.t2)
        o.jumps = [b2]
        #expect(JumpChain.hops(of: o).map(\.name) == ["b1", "b2"])
        let session = try SSHSession.connect(o)
        #expect(text(try session.capture("echo ok").stdout) == "ok\n")
    }

    @Test func aPersistentShellThroughAHopKeepsItsFolder() throws {
        let s = try TestServers.require()
        let shell = SessionShell(session: try SSHSession.connect(t1ViaBastion(s)))
        #expect(try shell.start() == .persistent)
        var out: [UInt8] = []
        _ = try shell.run("cd /tmp", output: { _, _ in })
        _ = try shell.run("pwd", output: { _, b in out += b })
        #expect(text(out) == "/tmp\n")
    }

    @Test func eachHopsUnknownKeyIsRefusedNamingItThenSavedUnderItsOwnName() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        var o = t1ViaBastion(s)
        o.knownHostsFile = dir.file("known_hosts")
        o.hostKeyPolicy = .strict
        o.jumps[0].knownHostsFile = dir.file("known_hosts")
        o.jumps[0].hostKeyPolicy = .strict
        let bastion = sshError { _ = try SSHSession.connect(o) }
        #expect(bastion?.kind == .hostKeyUnknown)
        #expect(bastion?.situation.hasPrefix("bastion (\(s.jump.b1.host):22): host key unknown.") == true)
        #expect(bastion?.message.contains(s.jump.b1.fingerprint) == true)
        #expect(!FileManager.default.fileExists(atPath: dir.file("known_hosts")))

        o.jumps[0].hostKeyPolicy = .acceptNew
        let target = sshError { _ = try SSHSession.connect(o) }
        #expect(target?.kind == .hostKeyUnknown)
        #expect(target?.situation.hasPrefix("\(s.jump.t1.host): host key unknown (seen through bastion).") == true)
        #expect(target?.message.contains(s.jump.t1.fingerprint) == true)

        o.hostKeyPolicy = .acceptNew
        let session = try SSHSession.connect(o)
        #expect(session.hostKey.fingerprint == s.jump.t1.fingerprint)
        // Each key under its own name, as OpenSSH looks them up.
        for name in [s.jump.b1.host, "[\(s.jump.t1.host)]:2200"] {
            let found = try Binary.run("/usr/bin/ssh-keygen", ["-F", name, "-f", dir.file("known_hosts")])
            #expect(found.status == 0, "\(name) saved")
        }
        o.hostKeyPolicy = .strict
        o.jumps[0].hostKeyPolicy = .strict
        _ = try SSHSession.connect(o)
    }

    @Test func askingAboutKeysAndPasswordsNamesEachHop() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        var o = t1ViaBastion(s)
        o.knownHostsFile = dir.file("known_hosts")
        o.hostKeyPolicy = .ask
        o.jumps[0].knownHostsFile = dir.file("known_hosts")
        o.jumps[0].hostKeyPolicy = .ask
        o.jumps[0].identityFiles = []
        o.jumps[0].allowPassword = true
        let prompter = HostRecordingPrompter(password: s.password)
        let session = try SSHSession.connect(o, prompter: prompter)
        #expect(session.loginMethod == .keyFile(path: s.key("id_ed25519")))
        #expect(prompter.asked.withLock { $0 } == [
            "hostkey \(s.jump.b1.host):22", "password \(s.user)@\(s.jump.b1.host)", "hostkey \(s.jump.t1.host):2200",
        ])
    }

    @Test func aChangedKeyOnTheInnerHopIsRefusedAndNamed() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let other = s.otherHostKeyLine.split(separator: " ").prefix(2).joined(separator: " ")
        let known = try String(contentsOfFile: s.jump.knownHosts, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("[\(s.jump.t1.host)]") }.joined(separator: "\n")
        try (known + "\n[\(s.jump.t1.host)]:2200 \(other)\n").write(toFile: dir.file("known_hosts"), atomically: true,
                                                                   encoding: .utf8)
        var o = t1ViaBastion(s)
        o.knownHostsFile = dir.file("known_hosts")
        o.jumps[0].knownHostsFile = dir.file("known_hosts")
        o.hostKeyPolicy = .acceptNew
        let e = sshError { _ = try SSHSession.connect(o) }
        #expect(e?.kind == .hostKeyChanged)
        #expect(e?.situation.hasPrefix("\(s.jump.t1.host): host key changed (seen through bastion).\nWARNING:") == true)
        #expect(e?.situation.contains("[\(s.jump.t1.host)]:2200") == true)
    }

    @Test func wrongCredentialsAreNamedPerHop() throws {
        let s = try TestServers.require()
        var o = t1ViaBastion(s)
        o.jumps[0].identityFiles = [s.key("id_unauthorized")]
        let bastion = sshError { _ = try SSHSession.connect(o) }
        #expect(bastion?.kind == .authenticationFailed)
        #expect(bastion?.situation.hasPrefix("bastion (\(s.jump.b1.host):22): permission denied.") == true)

        o = t1ViaBastion(s)
        o.identityFiles = [s.key("id_unauthorized")]
        let target = sshError { _ = try SSHSession.connect(o) }
        #expect(target?.kind == .authenticationFailed)
        #expect(target?.situation.hasPrefix("\(s.jump.t1.host): permission denied (through bastion).") == true)
    }

    @Test func aBastionThatIsNotThereIsNamed() throws {
        let s = try TestServers.require()
        let e = sshError { _ = try SSHSession.connect(t1ViaBastion(s, bastionPort: s.jump.t1ClosedPort)) }
        #expect(e?.kind == .refused)
        #expect(e?.situation == "bastion (\(s.jump.b1.host):\(s.jump.t1ClosedPort)) refused the connection: "
                + "no SSH server listens there.")
    }

    @Test func aBastionForbiddingForwardingIsNamed() throws {
        let s = try TestServers.require()
        for port in [s.jump.b1NoForwardingPort, s.jump.b1PermitOpenPort] {
            let e = sshError { _ = try SSHSession.connect(t1ViaBastion(s, bastionPort: port)) }
            #expect(e?.kind == .refused)
            #expect(e?.situation.hasPrefix("bastion accepted, but it may not open a connection to "
                                           + "\(s.jump.t1.host):2200 (administratively prohibited)") == true,
                    "\(e?.situation ?? "no error")")
        }
    }

    @Test func aTargetThatRefusesBehindTheBastionIsNamed() throws {
        let s = try TestServers.require()
        var o = t1ViaBastion(s)
        o.port = s.jump.t1ClosedPort
        let e = sshError { _ = try SSHSession.connect(o) }
        #expect(e?.kind == .unreachable)
        #expect(e?.situation.hasPrefix("bastion accepted, but could not connect to "
                                       + "\(s.jump.t1.host):\(s.jump.t1ClosedPort) (connect failed)") == true)
    }

    @Test func aSilentTargetTimesOutAndTheRelayOpensTheNextOneAfterIt() throws {
        let s = try TestServers.require()
        let bastion = try SSHSession.connect(hop(s, s.jump.b1, name: "bastion"))
        let relay = try ChannelRelay(session: bastion, name: "bastion")
        defer { relay.stop() }
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]) }
        let started = Date()
        let e = sshError { try relay.open(to: s.jump.t1.host, port: s.jump.t1SilentPort, descriptor: pair[1], timeout: 1) }
        #expect(e?.kind == .timedOut)
        #expect(e?.situation.hasPrefix("bastion did not get a connection to \(s.jump.t1.host):\(s.jump.t1SilentPort) "
                                       + "within 1 s") == true)
        #expect(Date().timeIntervalSince(started) < 2)
        // libssh2 still waits for the server's answer to that open; the next open must not wait for good.
        let second = Date()
        var o = hop(s, s.jump.t1)
        o.connectTimeout = 10
        let session = try SSHSession.connect(o, through: relay)
        #expect(text(try session.capture("echo through").stdout) == "through\n")
        #expect(Date().timeIntervalSince(second) < 5)
    }

    @Test func aCancelledOpenAnswersAtOnce() throws {
        let s = try TestServers.require()
        let bastion = try SSHSession.connect(hop(s, s.jump.b1, name: "bastion"))
        let relay = try ChannelRelay(session: bastion, name: "bastion")
        defer { relay.stop() }
        var pair: [Int32] = [-1, -1]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]) }
        let cancel = try Cancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { cancel.cancel() }
        let started = Date()
        let e = sshError {
            try relay.open(to: s.jump.t1.host, port: s.jump.t1SilentPort, descriptor: pair[1], timeout: 30,
                           cancel: cancel)
        }
        #expect(e?.kind == .cancelled)
        #expect(Date().timeIntervalSince(started) < 1.5)
        // The relay's end of the pair was closed: its user sees end-of-file.
        var byte: UInt8 = 0
        #expect(read(pair[0], &byte, 1) == 0)
    }

    @Test func theBastionKilledMidCommandEndsItWithAClearErrorAtOnce() throws {
        let s = try TestServers.require()
        let own = try NamespaceSSHD(s.jump.b1, servers: s)
        defer { own.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        try FileManager.default.copyItem(atPath: s.jump.knownHosts, toPath: dir.file("known_hosts"))
        var o = t1ViaBastion(s, bastionPort: own.port)
        o.jumps[0].knownHostsFile = dir.file("known_hosts")
        o.jumps[0].hostKeyPolicy = .acceptNew
        let session = try SSHSession.connect(o)
        #expect(text(try session.capture("echo up").stdout) == "up\n")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { own.killAll(SIGKILL) }
        let started = Date()
        let e = sshError { _ = try session.capture("sleep 30") }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(e?.kind == .disconnected)
        #expect(e?.situation.hasPrefix("The connection to bastion was lost") == true, "\(e?.situation ?? "")")
        // Later calls fail at once too.
        let later = Date()
        #expect(sshError { _ = try session.capture("true") } != nil)
        #expect(Date().timeIntervalSince(later) < 2)
    }

    @Test func twentyInnerSessionsShareOneBastionLogin() throws {
        let s = try TestServers.require()
        let own = try NamespaceSSHD(s.jump.b1, servers: s)
        defer { own.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        try FileManager.default.copyItem(atPath: s.jump.knownHosts, toPath: dir.file("known_hosts"))
        var b = hop(s, s.jump.b1, port: own.port, name: "bastion")
        b.knownHostsFile = dir.file("known_hosts")
        b.hostKeyPolicy = .acceptNew
        let relay = try ChannelRelay(session: try SSHSession.connect(b), name: "bastion")
        defer { relay.stop() }
        let results = Mutex<[Int: String]>([:])
        let peak = Mutex(0)
        let group = DispatchGroup()
        let sessions = Mutex<[SSHSession]>([])
        for i in 0..<20 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do {
                    let session = try SSHSession.connect(hop(s, s.jump.t1), through: relay)
                    sessions.withLock { $0.append(session) }
                    peak.withLock { $0 = max($0, relay.openLinkCount) }
                    let out = try session.capture("echo \(i)")
                    results.withLock { $0[i] = String(decoding: out.stdout, as: UTF8.self) }
                } catch {
                    results.withLock { $0[i] = "error: \(error)" }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        let got = results.withLock { $0 }
        #expect(got.count == 20)
        for i in 0..<20 { #expect(got[i] == "\(i)\n", "session \(i): \(got[i] ?? "nothing")") }
        #expect(relay.openLinkCount == 20)
        #expect(peak.withLock { $0 } >= 2)
        #expect(own.acceptedLogins == 1)
        #expect(relay.links.allSatisfy { $0.bytesIn > 0 && $0.bytesOut > 0 })
        for session in sessions.withLock({ $0 }) { session.disconnect() }
        // Each inner session's goodbye closes its socket; the relay ends the link.
        let deadline = Date().addingTimeInterval(5)
        while relay.openLinkCount > 0 && Date() < deadline { usleep(20_000) }
        #expect(relay.openLinkCount == 0)
    }

    @Test func a100MBStreamThroughAHopArrivesByteForByte() throws {
        let s = try TestServers.require()
        let session = try SSHSession.connect(t1ViaBastion(s))
        var hash = SHA256()
        var count = 0
        let started = Date()
        let exit = try session.run("head -c 100000000 \(s.data200M)", timeout: 120) { stream, bytes in
            if stream == .stdout {
                hash.update(bufferPointer: bytes)
                count += bytes.count
            }
        }
        let seconds = Date().timeIntervalSince(started)
        #expect(exit.status == 0)
        #expect(count == 100_000_000)
        let remote = try session.capture("head -c 100000000 \(s.data200M) | sha256sum")
        let local = hash.finalize().map { String(format: "%02x", $0) }.joined()
        #expect(text(remote.stdout).hasPrefix(local))
        print("100 MB through one hop: \(String(format: "%.2f", seconds)) s, "
              + "\(String(format: "%.0f", 100 / seconds)) MB/s")
    }

    @Test func tenMBUpThroughAHopArriveByteForByte() throws {
        let s = try TestServers.require()
        let session = try SSHSession.connect(t1ViaBastion(s))
        let bytes = (0..<10_000_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }
        let local = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        let r = try session.capture("sha256sum", input: .bytes(bytes), timeout: 60)
        #expect(text(r.stdout).hasPrefix(local))
    }

    @Test func aRelayedSessionRunsNothingElse() throws {
        let s = try TestServers.require()
        let bastion = try SSHSession.connect(hop(s, s.jump.b1))
        let relay = try ChannelRelay(session: bastion)
        let e = sshError { _ = try bastion.capture("true") }
        #expect(e?.kind == .library)
        relay.stop()
        #expect(text(try bastion.capture("echo free").stdout) == "free\n")
    }
}
