import Foundation
import Testing
import TestSupport
@testable import SSH

/// Peers that do not behave before the handshake: every one ends within the connect timeout (or at once when
/// cancelled), saying what the peer did (issue 13 §1).
@Suite struct HostileServerTests {
    private func options(port: Int, timeout: Double = 2) -> ConnectOptions {
        var o = ConnectOptions(host: "127.0.0.1", port: port, user: "u", knownHostsFile: "/dev/null")
        o.globalKnownHostsFiles = []
        o.useAgent = false
        o.connectTimeout = timeout
        return o
    }

    @Test func aPeerStreamingBytesWithoutALineEndIsRefusedAtOnce() throws {
        let peer = try LoopbackListener(.floods("a"))
        defer { peer.close() }
        let started = Date()
        let e = sshError { _ = try SSHSession.connect(options(port: peer.port, timeout: 10)) }
        #expect(e?.kind == .notSSH)
        #expect(e?.message.contains("does not speak SSH") == true, "\(String(describing: e?.message))")
        #expect(e?.message.contains("without a line break") == true)
        #expect(Date().timeIntervalSince(started) < 5, "bounded by bytes, long before the 10 s timeout")
    }

    @Test func aPeerStreamingShortLinesForeverIsRefusedAfterOpenSSHsLineLimit() throws {
        let peer = try LoopbackListener(.floods("no ssh here\r\n"))
        defer { peer.close() }
        let e = sshError { _ = try SSHSession.connect(options(port: peer.port, timeout: 10)) }
        #expect(e?.message.contains("more than 1024 lines") == true, "\(String(describing: e?.message))")
    }

    @Test func aSilentPeerTimesOutAndACancelEndsTheWaitAtOnce() throws {
        let peer = try LoopbackListener(.silent)
        defer { peer.close() }
        let started = Date()
        let e = sshError { _ = try SSHSession.connect(options(port: peer.port, timeout: 1)) }
        #expect(e?.kind == .timedOut)
        #expect(Date().timeIntervalSince(started) < 3)
        // A cancel from another thread wakes the wait.
        let cancel = try Cancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { cancel.cancel() }
        let cancelledAt = Date()
        let c = sshError { _ = try SSHSession.connect(options(port: peer.port, timeout: 30), cancel: cancel) }
        #expect(c?.kind == .cancelled)
        #expect(Date().timeIntervalSince(cancelledAt) < 2)
    }

    /// Messages read as sentences: "during the handshake" (it said "while handshake"), "1 other line" (it said
    /// "1 other lines").
    @Test func timeoutSentencesAreGrammatical() throws {
        let mute = try LoopbackListener(.sends("SSH-2.0-Mute_1.0"))
        defer { mute.close() }
        let handshake = sshError { _ = try SSHSession.connect(options(port: mute.port, timeout: 1)) }
        #expect(handshake?.kind == .timedOut)
        #expect(handshake?.message == "The server did not answer within 1 s during the handshake.",
                "\(String(describing: handshake?.message))")
        let chatty = try LoopbackListener(.sends("hello there"))
        defer { chatty.close() }
        let identification = sshError { _ = try SSHSession.connect(options(port: chatty.port, timeout: 1)) }
        #expect(identification?.message.contains("(only 1 other line)") == true,
                "\(String(describing: identification?.message))")
        #expect(SessionIO.when("opening a channel") == "while opening a channel")
    }

    /// RFC 4253 §4.2: lines before `SSH-` are allowed; a real sshd behind a relay that adds them is logged into.
    @Test func linesBeforeTheIdentificationAreAccepted() throws {
        let s = try TestServers.require()
        let relay = try PreambleRelay(preamble: "Welcome to the test relay\r\nAuthorised use only\r\n",
                                      targetPort: s.port)
        defer { relay.close() }
        var o = ConnectOptions(host: "127.0.0.1", port: relay.port, user: s.user, knownHostsFile: "/dev/null")
        o.globalKnownHostsFiles = []
        o.hostKeyPolicy = .acceptNew
        o.identityFiles = [s.key("id_ed25519")]
        o.useAgent = false
        o.connectTimeout = 5
        let session = try SSHSession.connect(o)
        let r = try session.capture("echo through")
        #expect(String(decoding: r.stdout, as: UTF8.self) == "through\n")
    }
}
