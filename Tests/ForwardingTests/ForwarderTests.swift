import Foundation
import Synchronization
import Testing
import TestSupport
import SSH
@testable import Forwarding

/// The forwarder against real sshd in the jump topology's namespaces: t1 is reachable only from b1, so what arrives
/// there came through the tunnel.
@Suite(.serialized) struct ForwarderTests {
    private func start(_ session: SSHSession, _ specs: [String], log: EventLog = EventLog(),
                       openTimeout: Double = 10) throws -> Forwarder {
        let forwards = try specs.map { text -> ForwardSpec in
            let kind = ForwardSpec.Kind(rawValue: String(text.prefix(1)))!
            return try ForwardSpecParser.parse(kind, String(text.dropFirst(2)))
        }
        let forwarder = try Forwarder(session: session, forwards: forwards, name: "b1", openTimeout: openTimeout) {
            log.add($0)
        }
        try forwarder.start()
        return forwarder
    }

    private func web(_ s: TestServers) throws -> Background {
        let folder = try TempDir()
        try "hello from t1\n".write(toFile: folder.file("index.txt"), atomically: true, encoding: .utf8)
        chmod(folder.path, 0o755)
        return try Background(python: Background.http, netns: s.jump.t1.netns,
                              arguments: [s.jump.t1.host, "0", folder.path])
    }

    @Test func localForwardReachesAWebServerOnlyTheBastionReaches() throws {
        let s = try TestServers.require()
        let server = try web(s)
        let session = try SSHSession.connect(hop(s, s.jump.b1))
        defer { session.disconnect() }
        let log = EventLog()
        let forwarder = try start(session, ["L 0:\(s.jump.t1.host):\(server.port)"], log: log)
        let port = listeningPort(forwarder)
        #expect(port > 0)
        // Both loopback addresses at the one port picked for 0, as ssh binds them.
        #expect(log.wait(for: "listening on 127.0.0.1:\(port) and [::1]:\(port), forwarding to "
                         + "\(s.jump.t1.host):\(server.port) through b1"), "\(log.lines)")
        let r = try curl(["http://127.0.0.1:\(port)/index.txt"])
        #expect(r.out == "hello from t1\n", "\(r.err)")
        // curl of localhost tries ::1 first: it finds the forward there too.
        let v6 = try curl(["-6", "http://[::1]:\(port)/index.txt"])
        #expect(v6.out == "hello from t1\n", "\(v6.err)")
        #expect(try curl(["-6", "http://localhost:\(port)/index.txt"]).out == "hello from t1\n")
        let figures = forwarder.figures
        #expect(figures.state == .up && figures.connections == 3 && figures.bytesIn > 0 && figures.bytesOut > 0)
        // curl has closed each connection; the relay sees the last end-of-file a moment later.
        for _ in 0..<100 where forwarder.figures.openConnections > 0 { usleep(20_000) }
        #expect(forwarder.stop() == 0)
        #expect(forwarder.state == .stopped)
        #expect(try curl(["http://127.0.0.1:\(port)/index.txt"]).status != 0)
    }

    @Test func localForwardThroughAJumpHost() throws {
        let s = try TestServers.require()
        let server = try web(s)
        var target = hop(s, s.jump.t1)
        target.jumps = [hop(s, s.jump.b1, name: "bastion")]
        let session = try SSHSession.connect(target)
        defer { session.disconnect() }
        // The web server listens on t1's address; t1 reaches itself.
        let forwarder = try start(session, ["L 0:\(s.jump.t1.host):\(server.port)"])
        defer { forwarder.stop() }
        #expect(try curl(["http://127.0.0.1:\(listeningPort(forwarder))/index.txt"]).out == "hello from t1\n")
    }

    @Test func dynamicForwardIsASOCKSProxyForCurl() throws {
        let s = try TestServers.require()
        let server = try web(s)
        let session = try SSHSession.connect(hop(s, s.jump.b1))
        defer { session.disconnect() }
        let log = EventLog()
        let forwarder = try start(session, ["D 0"], log: log)
        defer { forwarder.stop() }
        let proxy = "127.0.0.1:\(listeningPort(forwarder))"
        let url = "http://\(s.jump.t1.host):\(server.port)/index.txt"
        #expect(try curl(["--socks5-hostname", proxy, url]).out == "hello from t1\n")
        #expect(try curl(["--socks5", proxy, url]).out == "hello from t1\n")
        #expect(try curl(["--socks4a", proxy, url]).out == "hello from t1\n")
        #expect(try curl(["--socks5-hostname", "[::1]:\(listeningPort(forwarder))", url]).out == "hello from t1\n")
        // A closed port: curl hears SOCKS5's "connection refused" (reply 5), the proxy stays up.
        let closed = try curl(["--socks5-hostname", proxy, "http://\(s.jump.t1.host):\(s.jump.t1ClosedPort)/"])
        #expect(closed.status == 97)
        #expect(log.wait(for: "-D 0: the server could not connect to \(s.jump.t1.host):\(s.jump.t1ClosedPort) "
                         + "(connection refused); the tunnel stays up."))
        #expect(try curl(["--socks5-hostname", proxy, url]).out == "hello from t1\n")
        #expect(forwarder.figures.failedConnections == 1)
    }

    @Test func remoteForwardComesBackToALocalListener() throws {
        let s = try TestServers.require()
        let echo = try Background(python: Background.echo, netns: nil, arguments: ["127.0.0.1", "0"])
        let session = try SSHSession.connect(hop(s, s.jump.b1))
        defer { session.disconnect() }
        let log = EventLog()
        let forwarder = try start(session, ["R 0:127.0.0.1:\(echo.port)"], log: log)
        defer { forwarder.stop() }
        let port = listeningPort(forwarder)
        #expect(port > 0)
        #expect(log.wait(for: "b1 listens on localhost:\(port), forwarding to 127.0.0.1:\(echo.port) from here"))
        // From b1's namespace, where the server listens.
        let client = """
            import socket, sys
            c = socket.create_connection(('127.0.0.1', int(sys.argv[1])))
            c.sendall(b'ping through -R')
            c.shutdown(socket.SHUT_WR)
            data = b''
            while True:
                d = c.recv(4096)
                if not d:
                    break
                data += d
            print(data.decode())
            """
        let r = try Spawn.run("/usr/sbin/ip", ["netns", "exec", s.jump.b1.netns, "python3", "-c", client, String(port)])
        #expect(r.out == "ping through -R\n", "\(r.err)")
        #expect(forwarder.figures.connections == 1)
    }

    @Test func remoteForwardToNothingIsReportedPerConnection() throws {
        let s = try TestServers.require()
        let closed = try LoopbackListener.closedPort()
        let session = try SSHSession.connect(hop(s, s.jump.b1))
        defer { session.disconnect() }
        let log = EventLog()
        let forwarder = try start(session, ["R 0:127.0.0.1:\(closed)"], log: log)
        defer { forwarder.stop() }
        let port = listeningPort(forwarder)
        _ = try Spawn.run("/usr/sbin/ip", ["netns", "exec", s.jump.b1.netns, "python3", "-c",
                                           "import socket,sys; c=socket.create_connection(('127.0.0.1', int(sys.argv[1]))); c.recv(10)",
                                           String(port)])
        #expect(log.wait(for: "a connection came in on the server, but 127.0.0.1:\(closed) could not be reached "
                         + "from here (Connection refused)."))
        #expect(forwarder.state == .up)
    }

    @Test func aHundredParallelConnectionsThroughOneTunnelAllComeBackByteExact() throws {
        let s = try TestServers.require()
        let echo = try Background(python: Background.echo, netns: s.jump.t1.netns, arguments: [s.jump.t1.host, "0"])
        let session = try SSHSession.connect(hop(s, s.jump.b1))
        defer { session.disconnect() }
        let forwarder = try start(session, ["L 0:\(s.jump.t1.host):\(echo.port)"], openTimeout: 30)
        defer { forwarder.stop() }
        let port = listeningPort(forwarder)
        let results = Mutex<[Int: Bool]>([:])
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: 100) { i in
            var generator = SeededGenerator(seed: UInt64(i + 1))
            let bytes = (0..<(96 * 1024 + i * 97)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let back = (try? exchange(port: port, bytes)) ?? []
            results.withLock { $0[i] = back == bytes }
        }
        let ok = results.withLock { $0.values.filter { $0 }.count }
        #expect(ok == 100, "only \(ok) of 100 came back whole")
        #expect(Date().timeIntervalSince(started) < 60)
        let figures = forwarder.figures
        #expect(figures.connections == 100 && figures.failedConnections == 0)
    }

    @Test func aPortAlreadyInUseStopsTheStartAndSaysSo() throws {
        let s = try TestServers.require()
        let taken = try LoopbackListener(.silent)
        defer { taken.close() }
        let session = try SSHSession.connect(hop(s, s.jump.b1))
        defer { session.disconnect() }
        let log = EventLog()
        do {
            _ = try start(session, ["D 0", "L \(taken.port):\(s.jump.t1.host):80"], log: log)
            Issue.record("started on a port in use")
        } catch let error as ForwardError {
            #expect(error.kind == .portInUse)
            #expect(error.message.hasPrefix("-L \(taken.port):\(s.jump.t1.host):80: 127.0.0.1:\(taken.port) is "
                                            + "already in use"))
        }
        // All or nothing: the -D set up before it is closed again, and the session is free for other work.
        #expect(String(decoding: try session.capture("echo free").stdout, as: UTF8.self) == "free\n")
    }

    /// A port taken on ::1 only is as taken as on 127.0.0.1 (a client of localhost would reach the other program):
    /// the start fails naming [::1], and nothing is left listening on 127.0.0.1.
    @Test func aPortTakenOnTheIPv6LoopbackOnlyStopsTheStart() throws {
        let s = try TestServers.require()
        let probe = ForwardSpec(kind: .local, bindPort: 0, host: "x", hostPort: 1)
        // A port free on 127.0.0.1 as well: the suites run in parallel, and another test's listener on the same
        // number there would answer in its place (the start then fails on 127.0.0.1, not [::1]).
        var held: (fds: [Int32], port: Int)?
        for _ in 0..<20 where held == nil {
            let candidate = try TCPSocket.listen(on: ["::1"], port: 0, for: probe)
            if let twin = try? TCPSocket.listen(on: ["127.0.0.1"], port: candidate.port, for: probe) {
                twin.fds.forEach { close($0) }
                held = (candidate.fds, candidate.port)
            } else {
                candidate.fds.forEach { close($0) }
            }
        }
        let taken = try #require(held, "no port free on both loopbacks")
        defer { taken.fds.forEach { close($0) } }
        let session = try SSHSession.connect(hop(s, s.jump.b1))
        defer { session.disconnect() }
        do {
            _ = try start(session, ["L \(taken.port):\(s.jump.t1.host):80"])
            Issue.record("started on a port in use on ::1")
        } catch let error as ForwardError {
            #expect(error.kind == .portInUse)
            #expect(error.message.hasPrefix("-L \(taken.port):\(s.jump.t1.host):80: [::1]:\(taken.port) is already in "
                                            + "use"), "\(error.message)")
        }
        #expect(throws: ForwardError.self) { close(try connectTCP(host: "127.0.0.1", port: taken.port)) }
    }

    /// A machine without IPv6 on its loopback (a network namespace with it off, as a host booted without IPv6):
    /// the forward listens on 127.0.0.1 alone, says so, and serves.
    @Test func withoutIPv6OnLoopbackTheForwardListensOn127001Alone() throws {
        let s = try TestServers.require()
        let server = try web(s)
        let session = try SSHSession.connect(hop(s, s.jump.b1))
        defer { session.disconnect() }
        let log = EventLog()
        let got = try withoutIPv6Loopback { () throws -> [UInt8] in
            let forwarder = try start(session, ["L 0:\(s.jump.t1.host):\(server.port)"], log: log)
            defer { forwarder.stop() }
            let request = "GET /index.txt HTTP/1.0\r\nHost: t1\r\n\r\n"
            return try exchange(port: listeningPort(forwarder), Array(request.utf8))
        }
        let port = log.lines.first.flatMap { line in
            line.range(of: "127.0.0.1:").map { Int(line[$0.upperBound...].prefix { $0.isNumber }) ?? 0 }
        } ?? 0
        #expect(log.lines.first == "-L 0:\(s.jump.t1.host):\(server.port): listening on 127.0.0.1:\(port), forwarding "
                + "to \(s.jump.t1.host):\(server.port) through b1", "\(log.lines)")
        #expect(String(decoding: got, as: UTF8.self).hasSuffix("hello from t1\n"))
    }

    @Test func aBastionThatForbidsForwardingIsNamedPerConnectionAndForRemoteForwards() throws {
        let s = try TestServers.require()
        let session = try SSHSession.connect(hop(s, s.jump.b1, port: s.jump.b1NoForwardingPort))
        defer { session.disconnect() }
        let log = EventLog()
        let forwarder = try start(session, ["L 0:\(s.jump.t1.host):\(s.jump.t1.port)"], log: log)
        let fd = try connectTCP(host: "127.0.0.1", port: listeningPort(forwarder))
        #expect(readToEnd(fd).isEmpty)
        close(fd)
        #expect(log.wait(for: "the server may not open connections to \(s.jump.t1.host):\(s.jump.t1.port) "
                         + "(administratively prohibited"))
        forwarder.stop()

        let other = try SSHSession.connect(hop(s, s.jump.b1, port: s.jump.b1NoForwardingPort))
        defer { other.disconnect() }
        do {
            _ = try start(other, ["R 0:127.0.0.1:80"])
            Issue.record("a remote forward was granted by a server that forbids forwarding")
        } catch let error as ForwardError {
            #expect(error.kind == .remoteRefused)
            #expect(error.message.hasPrefix("-R 0:127.0.0.1:80: b1 refused to listen on localhost:0 for us"))
        }
    }

    @Test func permitOpenAllowsOnlyItsTarget() throws {
        let s = try TestServers.require()
        let session = try SSHSession.connect(hop(s, s.jump.b1, port: s.jump.b1PermitOpenPort))
        defer { session.disconnect() }
        let log = EventLog()
        let forwarder = try start(session, ["L 0:\(s.jump.t1.host):\(s.jump.t1.port)",
                                            "L 0:\(s.jump.t1.host):\(s.jump.t1ClosedPort)"], log: log)
        defer { forwarder.stop() }
        close(try connectTCP(host: "127.0.0.1", port: listeningPort(forwarder, 0)))
        #expect(log.wait(for: "(administratively prohibited"))
        close(try connectTCP(host: "127.0.0.1", port: listeningPort(forwarder, 1)))
        #expect(log.wait(for: "could not connect to \(s.jump.t1.host):\(s.jump.t1ClosedPort) (connection refused)"))
    }

    @Test func aClosedTargetPortFailsThatConnectionWhileTheTunnelStaysUp() throws {
        let s = try TestServers.require()
        let echo = try Background(python: Background.echo, netns: s.jump.t1.netns, arguments: [s.jump.t1.host, "0"])
        let session = try SSHSession.connect(hop(s, s.jump.b1))
        defer { session.disconnect() }
        let log = EventLog()
        let forwarder = try start(session, ["L 0:\(s.jump.t1.host):\(s.jump.t1ClosedPort)",
                                            "L 0:\(s.jump.t1.host):\(echo.port)"], log: log)
        defer { forwarder.stop() }
        for _ in 0..<3 {
            let fd = try connectTCP(host: "127.0.0.1", port: listeningPort(forwarder, 0))
            #expect(readToEnd(fd).isEmpty)
            close(fd)
        }
        #expect(log.wait(for: "-L 0:\(s.jump.t1.host):\(s.jump.t1ClosedPort): the server could not connect to "
                         + "\(s.jump.t1.host):\(s.jump.t1ClosedPort) (connection refused); the tunnel stays up."))
        #expect(try exchange(port: listeningPort(forwarder, 1), Array("still up".utf8)) == Array("still up".utf8))
        #expect(forwarder.state == .up)
    }

    @Test func stoppingSaysHowManyConnectionsWereOpenAndClosesThem() throws {
        let s = try TestServers.require()
        let echo = try Background(python: Background.echo, netns: s.jump.t1.netns, arguments: [s.jump.t1.host, "0"])
        let session = try SSHSession.connect(hop(s, s.jump.b1))
        defer { session.disconnect() }
        let forwarder = try start(session, ["L 0:\(s.jump.t1.host):\(echo.port)"])
        let held = try (0..<2).map { _ in try connectTCP(host: "127.0.0.1", port: listeningPort(forwarder)) }
        for fd in held { _ = send(fd, "x", 1, Int32(MSG_NOSIGNAL)) }
        var figures = forwarder.figures
        for _ in 0..<100 where figures.openConnections < 2 {
            usleep(20_000)
            figures = forwarder.figures
        }
        #expect(figures.openConnections == 2)
        let cancel = try Cancellation()
        cancel.cancel()
        guard case .stopped(let open) = forwarder.run(until: cancel) else {
            Issue.record("not stopped")
            return
        }
        #expect(open == 2)
        for fd in held {
            var one = [UInt8](repeating: 0, count: 4)
            _ = read(fd, &one, 1)  // the echoed x, then end-of-file
            #expect(read(fd, &one, 4) == 0)
            close(fd)
        }
    }

    /// The bastion killed under an idle tunnel: the relay sees the socket's end (POLLRDHUP) and `run` reports the
    /// session lost. Bounded so it can never hang the suite.
    @Test
    func aLostSessionEndsRunWithTheReason() throws {
        let s = try TestServers.require()
        let sshd = try NamespaceSSHD(s.jump.b1, servers: s)
        var options = hop(s, s.jump.b1, port: sshd.port)
        options.keepaliveInterval = 1
        let dir = try TempDir()
        defer { dir.cleanup() }
        options.knownHostsFile = dir.file("known_hosts")
        options.hostKeyPolicy = .acceptNew
        let session = try SSHSession.connect(options)
        defer { session.disconnect() }
        let forwarder = try start(session, ["D 0"])
        defer { sshd.stop() }
        sshd.killAll(SIGKILL)
        // Never wait forever: a run still going after 20 s fails the test.
        let cancel = try Cancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 20) { cancel.cancel() }
        guard case .lost = forwarder.run(until: cancel) else {
            Issue.record("run did not end with the session lost")
            return
        }
        if case .failed = forwarder.state {} else { Issue.record("state \(forwarder.state)") }
    }
}
