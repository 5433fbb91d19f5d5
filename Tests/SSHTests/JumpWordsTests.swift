import Testing
@testable import SSH

/// The pure parts of jump hosts and the relay: the buffer, the open failures' sentences, the hop-named errors.
@Suite struct JumpWordsTests {
    @Test func theRelayBufferKeepsOrderAndItsBound() {
        let buffer = RelayBuffer(capacity: 8)
        #expect(buffer.freeSpace == 8 && buffer.isEmpty)
        let room = buffer.writable()
        for (i, b) in [1, 2, 3, 4, 5, 6].enumerated() { room[i] = UInt8(b) }
        buffer.produced(6)
        buffer.consumed(4)
        #expect(Array(buffer.readable) == [5, 6])
        #expect(buffer.freeSpace == 6)
        // Room at the end is 2, but the data moves to the front to give all 6.
        let more = buffer.writable()
        #expect(more.count == 6)
        for i in 0..<6 { more[i] = UInt8(10 + i) }
        buffer.produced(6)
        #expect(Array(buffer.readable) == [5, 6, 10, 11, 12, 13, 14, 15])
        #expect(buffer.freeSpace == 0)
        buffer.consumed(8)
        #expect(buffer.isEmpty && buffer.freeSpace == 8)
    }

    @Test func channelOpenFailuresBecomeSentencesNamingTheRelayAndTheTarget() {
        let prohibited = ChannelOpenFailure.error(relay: "bastion", target: "10.1.2.3:22",
                                                  libssh2Message: "Channel open failure (administratively prohibited)")
        #expect(prohibited.kind == .refused)
        #expect(prohibited.situation.hasPrefix(
            "bastion accepted, but it may not open a connection to 10.1.2.3:22 (administratively prohibited)"))
        let failed = ChannelOpenFailure.error(relay: "bastion", target: "10.1.2.3:22",
                                              libssh2Message: "Channel open failure (connect failed)")
        #expect(failed.kind == .unreachable)
        #expect(failed.situation.hasPrefix("bastion accepted, but could not connect to 10.1.2.3:22 (connect failed)"))
        #expect(ChannelOpenFailure.error(relay: "b", target: "t:1", libssh2Message: "Channel open failure (resource shortage)")
            .situation.contains("refused to open more connections"))
        #expect(ChannelOpenFailure.error(relay: "b", target: "t:1",
                                         libssh2Message: "Channel open failure (unknown channel type)").kind == .protocolError)
        #expect(ChannelOpenFailure.error(relay: "b", target: "t:1", libssh2Message: "Channel open failure")
            .situation == "b could not open a connection to t:1 (Channel open failure).")
        #expect(ChannelOpenFailure.target(host: "::1", port: 22) == "[::1]:22")
        #expect(ChannelOpenFailure.timedOut(relay: "bastion", target: "t:1", timeout: 2).kind == .timedOut)
    }

    private func options(_ host: String, port: Int = 22, name: String? = nil) -> ConnectOptions {
        var o = ConnectOptions(host: host, port: port, user: "u", knownHostsFile: "/dev/null")
        o.name = name
        return o
    }

    @Test func errorsNameTheHopAndTheHopTheyWereSeenThrough() {
        let bastion = options("10.0.0.1", name: "bastion")
        let refused = SSHError(.refused, "Connection refused", "10.0.0.1 refused the connection on port 22: no SSH server listens there.")
        #expect(JumpChain.named(refused, hop: bastion, via: nil, stage: .connecting(address: "10.0.0.1")).situation
                == "bastion (10.0.0.1:22) refused the connection: no SSH server listens there.")
        let changed = SSHError(.hostKeyChanged, "", "WARNING: the host key of 10.1.2.3 has CHANGED.\nmore")
        let named = JumpChain.named(changed, hop: options("10.1.2.3"), via: "bastion", stage: .verifyingHostKey)
        #expect(named.kind == .hostKeyChanged)
        #expect(named.situation == "10.1.2.3: host key changed (seen through bastion).\nWARNING: the host key of "
                + "10.1.2.3 has CHANGED.\nmore")
        let denied = SSHError(.authenticationFailed, "", "Permission denied for u@10.1.2.3.", remedy: .givePassword)
        let deniedNamed = JumpChain.named(denied, hop: options("10.1.2.3"), via: "bastion", stage: nil)
        #expect(deniedNamed.situation == "10.1.2.3: permission denied (through bastion). Permission denied for u@10.1.2.3.")
        #expect(deniedNamed.remedy == .givePassword)
        #expect(JumpChain.named(denied, hop: bastion, via: nil, stage: .authenticating(method: "password")).situation
                .hasPrefix("bastion (10.0.0.1:22): permission denied. "))
        let cancelled = SSHError(.cancelled, "", "Cancelled.")
        #expect(JumpChain.named(cancelled, hop: bastion, via: nil, stage: nil).situation == "Cancelled.")
        #expect(JumpChain.fullName(options("::1", port: 2222)) == "[::1]:2222")
    }

    @Test func aHopsOwnJumpsComeBeforeIt() {
        var b2 = options("b2")
        b2.jumps = [options("b1")]
        var t = options("t")
        t.jumps = [b2, options("b3")]
        #expect(JumpChain.hops(of: t).map(\.host) == ["b1", "b2", "b3"])
        #expect(JumpChain.hops(of: t).allSatisfy { $0.jumps.isEmpty })
        #expect(JumpChain.hops(of: options("direct")).isEmpty)
    }
}

/// A password given for one server (a fleet's asked password, `--password-file`) answers that server only, never
/// a jump host on the way that asks for a password or keyboard-interactive answers.
@Suite("A prompter's password goes to its server only")
struct PasswordHostTests {
    @Test func aPasswordForTheDestinationIsNotGivenToAJumpHost() {
        let prompter = NonInteractivePrompter(password: "s3cret", onlyFor: "10.1.2.3")
        #expect(prompter.password(user: "ops", host: "10.1.2.3", attempt: 1) == "s3cret")
        #expect(prompter.password(user: "ops", host: "bastion.example", attempt: 1) == nil)
        let prompts: [(text: String, echo: Bool)] = [("Password: ", false)]
        #expect(prompter.keyboardInteractive(user: "ops", host: "10.1.2.3", name: "", instruction: "",
                                             prompts: prompts) == ["s3cret"])
        #expect(prompter.keyboardInteractive(user: "ops", host: "bastion.example", name: "", instruction: "",
                                             prompts: prompts) == nil)
    }

    @Test func withoutAHostThePasswordAnswersAnyServerAsBefore() {
        let prompter = NonInteractivePrompter(password: "s3cret")
        #expect(prompter.password(user: "ops", host: "any", attempt: 1) == "s3cret")
        #expect(prompter.keyboardInteractive(user: "ops", host: "any", name: "", instruction: "",
                                             prompts: [("Password: ", false)]) == ["s3cret"])
    }
}
