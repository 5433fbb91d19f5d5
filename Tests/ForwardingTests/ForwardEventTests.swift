import SSH
import Testing
@testable import Forwarding

/// One connection's failure, as the forwarder says it and as a SOCKS client hears it, from libssh2's channel-open
/// message (with eSSH's patch 0002 the server's description is in it).
@Suite struct ForwardEventTests {
    private func failure(_ message: String) -> SSHError {
        SSHError(.refused, message, "bastion accepted, but …")
    }

    @Test func aRefusedTargetIsNamedWithWhatTheServerSaw() {
        let e = failure("Channel open failure (connect failed: Connection refused)")
        #expect(ForwardEvent.openFailure(e, target: "db:5432")
                == "the server could not connect to db:5432 (connection refused); the tunnel stays up.")
        #expect(ForwardEvent.socksReply(e) == .connectionRefused)
    }

    @Test func withoutTheServersDescriptionTheReasonCodeIsSaid() {
        let e = failure("Channel open failure (connect failed)")
        #expect(ForwardEvent.openFailure(e, target: "db:5432")
                == "the server could not connect to db:5432 (connect failed); the tunnel stays up.")
        #expect(ForwardEvent.socksReply(e) == .connectionRefused)
    }

    @Test func aTimedOutOrUnroutableTargetIsUnreachableForSOCKS() {
        #expect(ForwardEvent.socksReply(failure("Channel open failure (connect failed: Connection timed out)"))
                == .hostUnreachable)
        #expect(ForwardEvent.socksReply(failure("Channel open failure (connect failed: No route to host)"))
                == .hostUnreachable)
        #expect(ForwardEvent.socksReply(failure("Channel open failure (connect failed: Network is unreachable)"))
                == .networkUnreachable)
    }

    @Test func aForbiddingServerIsNamedAndRefusedAsNotAllowed() {
        let e = failure("Channel open failure (administratively prohibited)")
        #expect(ForwardEvent.openFailure(e, target: "db:5432").hasPrefix(
            "the server may not open connections to db:5432 (administratively prohibited"))
        #expect(ForwardEvent.socksReply(e) == .notAllowed)
    }

    @Test func otherErrorsKeepTheirSituation() {
        let e = SSHError(.timedOut, "channel open timed out", "bastion did not get a connection in time.")
        #expect(ForwardEvent.openFailure(e, target: "db:5432")
                == "the server did not get a connection to db:5432 in time (no answer from it).")
        #expect(ForwardEvent.socksReply(e) == .hostUnreachable)
        let other = SSHError(.protocolError, "x", "the session ended.")
        #expect(ForwardEvent.openFailure(other, target: "db:5432") == "no connection to db:5432: the session ended.")
        #expect(ForwardEvent.socksReply(other) == .generalFailure)
    }
}
