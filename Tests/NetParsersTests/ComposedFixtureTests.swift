import Testing
@testable import NetParsers

@Suite struct ComposedFixtureTests {
    @Test func oldNetToolsLayoutGivesMasksMACsStateAndCounters() throws {
        let result = try NetParser.interfaces(Fixture.bytes("composed/ifconfig-old.out"))
        #expect(result.format == .ifconfigLinuxOld)
        #expect(result.warnings.isEmpty)
        #expect(result.items == [
            Interface(name: "eth0", state: .up, mtu: 1500, mac: "00:1a:2b:3c:4d:5e",
                      ipv4: [IPv4Address(address: "192.0.2.10", prefix: 24, broadcast: "192.0.2.255")],
                      ipv6: [IPv6Address(address: "2001:db8::10", prefix: 64, scope: "global"),
                             IPv6Address(address: "fe80::21a:2bff:fe3c:4d5e", prefix: 64, scope: "link")],
                      rxBytes: 123456, txBytes: 65432),
            Interface(name: "eth1", state: .down, mtu: 9000, mac: "00:1a:2b:3c:4d:5f", rxBytes: 0, txBytes: 0),
            Interface(name: "ppp0", state: .up, mtu: 1492, ipv4: [IPv4Address(address: "198.51.100.2", prefix: 32)],
                      rxBytes: 1000, txBytes: 1200),
        ])
    }

    @Test func freeBSDIfconfigReadsHexMasksAndDropsZones() throws {
        let result = try NetParser.interfaces(Fixture.bytes("composed/ifconfig-freebsd.out"))
        #expect(result.format == .ifconfigBSD)
        let em0 = try #require(result.items.first)
        #expect(em0.ipv4 == [IPv4Address(address: "192.0.2.20", prefix: 24, broadcast: "192.0.2.255"),
                             IPv4Address(address: "192.0.2.21", prefix: 32, broadcast: "192.0.2.21")])
        #expect(em0.ipv6 == [IPv6Address(address: "fe80::a00:27ff:feaa:bbcc", prefix: 64, scope: nil),
                             IPv6Address(address: "2001:db8:20::20", prefix: 64, scope: nil)])
        #expect(em0.mac == "08:00:27:aa:bb:cc")
        #expect(result.items.map(\.state) == [.up, .up, .down])
        #expect(result.items[1].ipv4 == [IPv4Address(address: "127.0.0.1", prefix: 8)])
    }

    @Test func macOSRoutesExpandShortNetworksAndKeepLinkLayerGateways() throws {
        let result = try NetParser.routes(Fixture.bytes("composed/netstat-rn-macos.out"))
        #expect(result.format == .netstatRoutesBSD)
        #expect(result.warnings.isEmpty)
        let d = result.items.map(\.destination)
        #expect(d.prefix(8) == ["0.0.0.0/0", "127.0.0.0/8", "127.0.0.1/32", "169.254.0.0/16", "192.0.2.0/24",
                                "192.0.2.1/32", "192.0.2.1/32", "224.0.0.0/4"])
        #expect(result.items[0] == Route(destination: "0.0.0.0/0", gateway: "192.0.2.1", interface: "en0",
                                         metric: nil, flags: "UGSc"))
        #expect(result.items[3].gateway == nil)
        #expect(d.suffix(5) == ["::/0", "::1/128", "2001:db8:30::/64", "fe80::/64", "fe80::1/128"])
    }

    @Test func macOSNetstatKeepsOnlyInternetSockets() throws {
        let result = try NetParser.sockets(Fixture.bytes("composed/netstat-an-macos.out"))
        #expect(result.format == .netstatBSD)
        #expect(result.warnings.isEmpty)
        #expect(result.items.map(\.local) == ["192.0.2.50:51234", "*:22", "*:8080", "*:5353", "[fe80::1%lo0]:123"])
        #expect(result.items[0].remote == "198.51.100.7:443")
        #expect(result.items[3].state == nil)
    }

    @Test func windowsNetstatWithPIDsReadsUDPRowsWithoutState() throws {
        let result = try NetParser.sockets(Fixture.bytes("composed/netstat-ano-windows.out"))
        #expect(result.format == .netstatWindows)
        #expect(result.items == [
            Socket(proto: "tcp", local: "0.0.0.0:135", remote: "0.0.0.0:0", state: "LISTENING", pid: 912, program: nil),
            Socket(proto: "tcp", local: "192.0.2.40:50123", remote: "198.51.100.9:443", state: "ESTABLISHED",
                   pid: 4410, program: nil),
            Socket(proto: "tcp", local: "[::]:445", remote: "[::]:0", state: "LISTENING", pid: 4, program: nil),
            Socket(proto: "udp", local: "0.0.0.0:500", remote: "*:*", state: nil, pid: 3120, program: nil),
            Socket(proto: "udp", local: "[fe80::1%7]:1900", remote: "*:*", state: nil, pid: 2268, program: nil),
        ])
    }

    @Test func windowsRoutePrintNamesIPv6InterfacesAndJoinsWrappedRows() throws {
        let result = try NetParser.routes(Fixture.bytes("composed/route-print-windows.out"))
        #expect(result.format == .routePrint)
        #expect(result.warnings.isEmpty)
        #expect(result.items == [
            Route(destination: "0.0.0.0/0", gateway: "192.0.2.1", interface: "192.0.2.40", metric: 25, flags: nil),
            Route(destination: "192.0.2.0/24", gateway: nil, interface: "192.0.2.40", metric: 281, flags: nil),
            Route(destination: "127.0.0.0/8", gateway: nil, interface: "127.0.0.1", metric: 331, flags: nil),
            Route(destination: "::/0", gateway: "fe80::1", interface: "Intel(R) PRO/1000 MT Desktop Adapter",
                  metric: 281, flags: nil),
            Route(destination: "::1/128", gateway: nil, interface: "Software Loopback Interface 1", metric: 331,
                  flags: nil),
            Route(destination: "2001:db8:40:0:1234:5678:9abc:def0/128", gateway: nil,
                  interface: "Intel(R) PRO/1000 MT Desktop Adapter", metric: 281, flags: nil),
        ])
    }

    @Test func ipRouteReadsMultipathAndRouteTypes() throws {
        let result = try NetParser.routes(Fixture.bytes("composed/ip-route-multipath.out"))
        #expect(result.warnings.isEmpty)
        #expect(result.items == [
            Route(destination: "0.0.0.0/0", gateway: "192.0.2.1", interface: "eth0", metric: 50, flags: nil,
                  proto: "static"),
            Route(destination: "0.0.0.0/0", gateway: "192.0.2.2", interface: "eth1", metric: 50, flags: nil,
                  proto: "static"),
            Route(destination: "198.51.100.0/24", gateway: nil, interface: nil, metric: 10, flags: "unreachable"),
            Route(destination: "203.0.113.0/24", gateway: nil, interface: nil, metric: nil, flags: "blackhole"),
            Route(destination: "192.0.2.0/24", gateway: nil, interface: "eth0", metric: nil, flags: nil,
                  src: "192.0.2.10", proto: "kernel", scope: "link"),
        ])
    }

    @Test func ssWithoutNetidLeavesProtocolUnknown() throws {
        let result = try NetParser.sockets(Fixture.bytes("composed/ss-tln-no-netid.out"))
        #expect(result.items == [
            Socket(proto: nil, local: "0.0.0.0:22", remote: "0.0.0.0:*", state: "LISTEN", pid: 701, program: "sshd"),
            Socket(proto: nil, local: "[::]:22", remote: "[::]:*", state: "LISTEN", pid: 701, program: "sshd"),
        ])
    }
}
