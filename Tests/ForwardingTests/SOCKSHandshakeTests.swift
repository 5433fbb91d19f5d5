import Testing
@testable import Forwarding

@Suite struct SOCKSHandshakeTests {
    private static let noAuthGreeting: [UInt8] = [5, 1, 0]

    @Test func socks5ConnectToAnIPv4Address() {
        var h = SOCKSHandshake()
        #expect(h.step([5]).result == .needMore)
        let greeting = h.step(Self.noAuthGreeting)
        #expect(greeting == SOCKSHandshake.Step(consumed: 3, send: [5, 0], result: .needMore))
        #expect(h.step([5, 1, 0, 1, 10, 0]).result == .needMore)
        let request = h.step([5, 1, 0, 1, 10, 0, 0, 3, 0x1F, 0x90, 0xAA])
        #expect(request == SOCKSHandshake.Step(consumed: 10, send: [], result: .connect(host: "10.0.0.3", port: 8080)))
        #expect(h.reply(.succeeded) == [5, 0, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect(h.reply(.connectionRefused) == [5, 5, 0, 1, 0, 0, 0, 0, 0, 0])
    }

    @Test func socks5DomainNameAndIPv6() {
        var h = SOCKSHandshake()
        _ = h.step(Self.noAuthGreeting)
        let name = Array("web.internal".utf8)
        let step = h.step([5, 1, 0, 3, UInt8(name.count)] + name + [0, 80])
        #expect(step.result == .connect(host: "web.internal", port: 80))
        #expect(step.consumed == 5 + name.count + 2)

        var v6 = SOCKSHandshake()
        _ = v6.step(Self.noAuthGreeting)
        let address: [UInt8] = [0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5]
        #expect(v6.step([5, 1, 0, 4] + address + [1, 0xBB]).result == .connect(host: "fd00::5", port: 443))
    }

    @Test func aRequestRightBehindTheGreetingIsReadInOneStep() {
        var h = SOCKSHandshake()
        let step = h.step(Self.noAuthGreeting + [5, 1, 0, 1, 127, 0, 0, 1, 0, 22] + [0x53])
        #expect(step == SOCKSHandshake.Step(consumed: 13, send: [5, 0], result: .connect(host: "127.0.0.1", port: 22)))
    }

    @Test func socks5FailuresAnswerWithTheRightCode() {
        var auth = SOCKSHandshake()
        #expect(auth.step([5, 1, 2]) == SOCKSHandshake.Step(
            consumed: 3, send: [5, 0xFF], result: .failed(reason: "the client offers no method without authentication")))

        var bind = SOCKSHandshake()
        _ = bind.step(Self.noAuthGreeting)
        let step = bind.step([5, 2, 0, 1, 1, 2, 3, 4, 0, 80])
        #expect(step.send == [5, 7, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect(step.result == .failed(reason: "BIND is not supported (CONNECT only)"))

        var kind = SOCKSHandshake()
        _ = kind.step(Self.noAuthGreeting)
        #expect(kind.step([5, 1, 0, 9, 0]).send == [5, 8, 0, 1, 0, 0, 0, 0, 0, 0])

        var empty = SOCKSHandshake()
        _ = empty.step(Self.noAuthGreeting)
        #expect(empty.step([5, 1, 0, 3, 0, 0, 80]).send.prefix(2) == [5, 1])

        var http = SOCKSHandshake()
        #expect(http.step(Array("GET / HTTP/1.1\r\n".utf8)).result == .failed(reason: "not a SOCKS client (first byte 71)"))
    }

    @Test func socks4AndSocks4a() {
        var v4 = SOCKSHandshake()
        #expect(v4.step([4, 1, 0, 80, 10, 0, 0]).result == .needMore)
        #expect(v4.step([4, 1, 0, 80, 10, 0, 0, 3, 0x75]).result == .needMore)
        let step = v4.step([4, 1, 0, 80, 10, 0, 0, 3, 0x75, 0])
        #expect(step == SOCKSHandshake.Step(consumed: 10, send: [], result: .connect(host: "10.0.0.3", port: 80)))
        #expect(v4.reply(.succeeded) == [0, 90, 0, 0, 0, 0, 0, 0])
        #expect(v4.reply(.hostUnreachable) == [0, 91, 0, 0, 0, 0, 0, 0])

        var v4a = SOCKSHandshake()
        let name = Array("db.internal".utf8)
        #expect(v4a.step([4, 1, 0x15, 0x38, 0, 0, 0, 1, 0] + name).result == .needMore)
        #expect(v4a.step([4, 1, 0x15, 0x38, 0, 0, 0, 1, 0] + name + [0]).result
                == .connect(host: "db.internal", port: 5432))

        var bind = SOCKSHandshake()
        #expect(bind.step([4, 2, 0, 80, 1, 2, 3, 4, 0]).send == [0, 91, 0, 0, 0, 0, 0, 0])
    }

    @Test func ipv6TextFollowsRFC5952() {
        #expect(SOCKSHandshake.ipv6Text([UInt8](repeating: 0, count: 15) + [1]) == "::1")
        #expect(SOCKSHandshake.ipv6Text([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]) == "2001:db8:0:1::1")
        #expect(SOCKSHandshake.ipv6Text([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]) == "1:2:3:4:5:6:7:8")
    }
}
