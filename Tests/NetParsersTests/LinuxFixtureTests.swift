import Testing
@testable import NetParsers

@Suite struct LinuxFixtureTests {
    @Test func ipAddrTextOneLineAndJSONAgreeOnEveryAddress() throws {
        let text = try NetParser.interfaces(Fixture.bytes("linux/ip-addr.out"))
        let oneLine = try NetParser.interfaces(Fixture.bytes("linux/ip-o-addr.out"))
        let json = try NetParser.interfaces(Fixture.bytes("linux/ip-j-addr.out"))
        #expect(text.format == .ipAddr)
        #expect(oneLine.format == .ipAddrOneLine)
        #expect(json.format == .ipAddrJSON)
        #expect(text.items == json.items)
        #expect(text.items.map(\.name) == oneLine.items.map(\.name))
        #expect(text.items.map(\.ipv4) == oneLine.items.map(\.ipv4))
        #expect(text.items.map(\.ipv6) == oneLine.items.map(\.ipv6))
        #expect(text.warnings.isEmpty && oneLine.warnings.isEmpty && json.warnings.isEmpty)
    }

    @Test func ipAddrReadsSeveralAddressesStateMTUAndPeers() throws {
        let items = try NetParser.interfaces(Fixture.bytes("linux/ip-addr.out")).items
        let byName = Dictionary(uniqueKeysWithValues: items.map { ($0.name, $0) })
        #expect(items.map(\.name) == ["lo", "veth1", "veth0", "br0", "mac42", "vx5", "down0", "tun0"])
        let veth0 = try #require(byName["veth0"])
        #expect(veth0.ipv4 == [IPv4Address(address: "10.10.0.1", prefix: 24, scope: "global"),
                               IPv4Address(address: "10.10.1.1", prefix: 16, scope: "global"),
                               IPv4Address(address: "10.10.0.2", prefix: 24, scope: "global")])
        #expect(veth0.ipv6.first == IPv6Address(address: "fd00:10::1", prefix: 64, scope: "global"))
        #expect(veth0.mac == "66:2f:e6:85:be:76")
        #expect(byName["down0"]?.state == .down)
        #expect(byName["down0"]?.mtu == 9000)
        #expect(byName["mac42"]?.mtu == 1400)
        #expect(byName["tun0"]?.mac == nil)
        #expect(byName["tun0"]?.ipv4 == [IPv4Address(address: "100.64.0.1", prefix: 32, scope: "global")])
        #expect(byName["lo"]?.state == .up)
        #expect(veth0.rxBytes == nil)
    }

    @Test func ifconfigMatchesIPOnPrimaryAddressesAndAddsCounters() throws {
        let result = try NetParser.interfaces(Fixture.bytes("linux/ifconfig-a.out"))
        #expect(result.format == .ifconfigLinux)
        #expect(result.warnings.isEmpty)
        let ip = try NetParser.interfaces(Fixture.bytes("linux/ip-addr.out")).items
        for i in result.items {
            let twin = try #require(ip.first { $0.name == i.name })
            #expect(i.mtu == twin.mtu)
            #expect(i.state == twin.state)
            // Each command shows more of its own (ip a scope, ifconfig a broadcast): address and prefix agree.
            let twinV4 = twin.ipv4.map { "\($0.address)/\($0.prefix ?? -1)" }
            #expect(i.ipv4.allSatisfy { twinV4.contains("\($0.address)/\($0.prefix ?? -1)") })
            #expect(Set(i.ipv6.map(\.address)) == Set(twin.ipv6.map(\.address)))
            if i.name != "lo" { #expect(i.mac == twin.mac) }
        }
        let veth1 = try #require(result.items.first { $0.name == "veth1" })
        #expect(veth1.rxBytes == 1198)
        #expect(veth1.txBytes == 516)
        #expect(veth1.ipv6.first?.scope == "link")
    }

    @Test func routeTablesGiveCIDRDestinationsAndDirectRoutesWithoutGateway() throws {
        let route = try NetParser.routes(Fixture.bytes("linux/route-n.out"))
        #expect(route.format == .routeLinux)
        #expect(route.items.first == Route(destination: "0.0.0.0/0", gateway: "10.10.0.254", interface: "veth0",
                                           metric: 100, flags: "UG"))
        #expect(route.items.contains(Route(destination: "172.16.42.0/28", gateway: nil, interface: "mac42",
                                           metric: 0, flags: "U")))
        let netstat = try NetParser.routes(Fixture.bytes("linux/netstat-rn.out"))
        #expect(netstat.format == .netstatRoutesLinux)
        #expect(netstat.items.map(\.destination) == route.items.map(\.destination))
        #expect(netstat.items.allSatisfy { $0.metric == nil })
        let ipRoute = try NetParser.routes(Fixture.bytes("linux/ip-route.out"))
        #expect(ipRoute.format == .ipRoute)
        #expect(ipRoute.items.map(\.destination) == route.items.map(\.destination))
        #expect(ipRoute.items.contains(Route(destination: "100.64.0.2/32", gateway: nil, interface: "tun0",
                                             metric: nil, flags: "linkdown", src: "100.64.0.1", proto: "kernel",
                                             scope: "link")))
        let six = try NetParser.routes(Fixture.bytes("linux/route-6-n.out"))
        #expect(six.format == .routeLinux6)
        #expect(six.items.contains(Route(destination: "::/0", gateway: "fd00:10::fe", interface: "veth0",
                                         metric: 1024, flags: "UG")))
        #expect(six.items.last == Route(destination: "::/0", gateway: nil, interface: "lo", metric: -1, flags: "!n"))
        let ip6 = try NetParser.routes(Fixture.bytes("linux/ip-6-route.out"))
        #expect(ip6.items.contains(Route(destination: "2001:db8:99::/64", gateway: "fd00:10::fe", interface: "veth0",
                                         metric: 50, flags: nil)))
        #expect(ip6.items.contains { $0.destination == "::/0" && $0.gateway == "fd00:10::fe" })
    }

    @Test func netstatAndSSListTheSameSocketsWithProcesses() throws {
        let netstat = try NetParser.sockets(Fixture.bytes("linux/netstat-tuna.out"))
        let ss = try NetParser.sockets(Fixture.bytes("linux/ss-tuna.out"))
        #expect(netstat.format == .netstatLinux)
        #expect(ss.format == .ss)
        #expect(netstat.items.count == ss.items.count)
        #expect(netstat.items.contains(Socket(proto: "tcp6", local: "[::]:8080", remote: "[::]:*", state: "LISTEN",
                                              pid: nil, program: nil)))
        #expect(netstat.items.contains { $0.proto == "udp" && $0.local == "0.0.0.0:5353" && $0.state == nil })
        #expect(ss.items.contains(Socket(proto: "udp", local: "[::1]:5354", remote: "[::]:*", state: "UNCONN",
                                         pid: nil, program: nil)))
        let tulpn = try NetParser.sockets(Fixture.bytes("linux/netstat-tulpn.out")).items
        #expect(tulpn.contains { $0.local == "127.0.0.1:2222" && $0.program == "python3" && $0.pid != nil })
        #expect(tulpn.contains { $0.local == "0.0.0.0:4789" && $0.pid == nil && $0.program == nil && $0.state == nil })
        #expect(tulpn.contains { $0.local == "[::1]:5354" && $0.program == "python3" && $0.state == nil })
        let ssp = try NetParser.sockets(Fixture.bytes("linux/ss-tulpn.out")).items
        #expect(ssp.contains { $0.local == "*:8080" && $0.program == "python3" && $0.pid != nil })
        #expect(ssp.contains { $0.local == "0.0.0.0:4789" && $0.pid == nil })
    }
}
