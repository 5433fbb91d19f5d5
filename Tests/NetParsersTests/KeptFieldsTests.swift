import Foundation
import Testing
import TestSupport
@testable import NetParsers

/// `essh parse --json` keeps what the input says (IPv4 broadcast and scope, a route's src, proto and scope) and
/// spells socket protocols and states one way for every tool, keeping the spelling printed beside it. Checked
/// against the shared corpus of real outputs (../shared/fixtures/network, read in place) and jc's reading of it.
@Suite struct KeptFieldsTests {
    private func corpus(_ stem: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: ConformanceTests.corpus + "/" + stem + ".out")))
    }

    private func jc(_ stem: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: ConformanceTests.corpus + "/" + stem + ".json"))
        return try JSONSerialization.jsonObject(with: data) as? [[String: Any]] ?? []
    }

    private func object(_ bytes: [UInt8], _ key: String) throws -> [[String: Any]] {
        let document = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        return document?[key] as? [[String: Any]] ?? []
    }

    @Test func ipRouteKeepsSrcProtoAndScopeAsJcReadsThem() throws {
        let routes = try NetParser.routes(try corpus("centos-7.7/ip_route")).items
        let expected = try jc("centos-7.7/ip_route")
        #expect(routes.count == expected.count)
        for (route, want) in zip(routes, expected) {
            #expect(route.src == want["src"] as? String, "\(route.destination) src")
            #expect(route.proto == want["proto"] as? String, "\(route.destination) proto")
            #expect(route.scope == want["scope"] as? String, "\(route.destination) scope")
        }
        #expect(routes.contains { $0.destination == "10.0.2.0/24" && $0.src == "10.0.2.15" && $0.proto == "kernel" })
        let json = try object(NetJSON.encode(routes: routes), "routes")
        let link = try #require(json.first { $0["destination"] as? String == "169.254.0.0/16" })
        #expect(link["scope"] as? String == "link" && link["src"] is NSNull && link["proto"] is NSNull)
    }

    @Test func multipathNexthopsInheritTheHeadsSrcProtoAndScope() throws {
        let text = """
            default proto static scope global src 192.0.2.10 metric 100
            \tnexthop via 192.0.2.1 dev eth0 weight 1
            \tnexthop via 192.0.2.2 dev eth1 weight 1
            """
        let routes = try NetParser.routes(Array(text.utf8), format: .ip).items
        #expect(routes.count == 2)
        #expect(routes.allSatisfy { $0.proto == "static" && $0.scope == "global" && $0.src == "192.0.2.10" })
    }

    @Test func ifconfigKeepsTheIPv4BroadcastAsJcReadsIt() throws {
        var checked = 0
        for stem in ["centos-7.7/ifconfig", "osx-10.11.6/ifconfig", "ubuntu-16.04/ifconfig",
                     "freebsd12/ifconfig-extra-fields"] {
            let interfaces = try NetParser.interfaces(try corpus(stem)).items
            for want in try jc(stem) {
                guard let name = want["name"] as? String, let address = want["ipv4_addr"] as? String else { continue }
                let got = interfaces.first { $0.name == name }?.ipv4.first { $0.address == address }
                #expect(got != nil, "\(stem) \(name) \(address)")
                #expect(got?.broadcast == want["ipv4_bcast"] as? String, "\(stem) \(name) broadcast")
                checked += 1
            }
        }
        #expect(checked >= 6)
    }

    @Test func ipAddrKeepsTheIPv4BroadcastAndScopeInEveryLayout() throws {
        let text = """
            2: enp0s3: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc pfifo_fast state UP group default qlen 1000
                link/ether 08:00:27:aa:bb:cc brd ff:ff:ff:ff:ff:ff
                inet 10.0.2.15/24 brd 10.0.2.255 scope global dynamic noprefixroute enp0s3
                   valid_lft 86000sec preferred_lft 86000sec
                inet 127.0.0.9/8 scope host lo
            """
        let one = try NetParser.interfaces(Array(text.utf8), format: .ip).items[0]
        #expect(one.ipv4 == [IPv4Address(address: "10.0.2.15", prefix: 24, broadcast: "10.0.2.255", scope: "global"),
                             IPv4Address(address: "127.0.0.9", prefix: 8, broadcast: nil, scope: "host")])
        let oneLine = "2: enp0s3    inet 10.0.2.15/24 brd 10.0.2.255 scope global dynamic enp0s3\\       valid_lft 1sec\n"
        #expect(try NetParser.interfaces(Array(oneLine.utf8), format: .ip).items[0].ipv4 == [one.ipv4[0]])
        let json = """
            [{"ifindex":2,"ifname":"enp0s3","flags":["UP"],"mtu":1500,"address":"08:00:27:aa:bb:cc",\
            "broadcast":"ff:ff:ff:ff:ff:ff","addr_info":[{"family":"inet","local":"10.0.2.15","prefixlen":24,\
            "broadcast":"10.0.2.255","scope":"global","label":"enp0s3"}]}]
            """
        #expect(try NetParser.interfaces(Array(json.utf8), format: .ip).items[0].ipv4 == [one.ipv4[0]])
        let fixture = try NetParser.interfaces(Fixture.bytes("linux/ip-addr.out")).items
        #expect(fixture.first { $0.name == "lo" }?.ipv4.first?.scope == "host")
        let document = try object(NetJSON.encode(interfaces: [one]), "interfaces")
        let v4 = try #require((document.first?["ipv4"] as? [[String: Any]])?.first)
        #expect(Set(v4.keys) == ["address", "prefix", "broadcast", "scope"])
        #expect(v4["broadcast"] as? String == "10.0.2.255" && v4["scope"] as? String == "global")
    }

    @Test func ssAndNetstatSpellStatesAndProtocolsOneWay() throws {
        // The same kind of socket, read from ss (ESTAB, tcp) and Linux netstat (ESTABLISHED), FreeBSD netstat
        // (tcp4, tcp6), and Windows netstat (TCP, LISTENING).
        let ss = try NetParser.sockets(try corpus("centos-7.7/ss-sudo-a")).items
        let netstat = try NetParser.sockets(try corpus("centos-7.7/netstat")).items
        let bsd = try NetParser.sockets(try corpus("freebsd12/netstat-an")).items
        let windows = try NetParser.sockets(try corpus("windows-10/netstat-an")).items
        #expect(ss.contains { $0.stateRaw == "ESTAB" && $0.state == "ESTABLISHED" && $0.proto == "tcp" })
        #expect(netstat.contains { $0.stateRaw == "ESTABLISHED" && $0.state == "ESTABLISHED" && $0.proto == "tcp" })
        #expect(Set(ss.compactMap(\.state)).isSubset(of: ["ESTABLISHED", "LISTEN"]), "\(Set(ss.compactMap(\.stateRaw)))")
        #expect(ss.filter { $0.proto == "udp" }.allSatisfy { $0.stateRaw == "UNCONN" && $0.state == nil })
        let bsd6 = try #require(bsd.first { $0.protoRaw == "tcp6" })
        #expect(bsd6.proto == "tcp" && bsd6.family == "ipv6" && bsd6.state == "LISTEN")
        #expect(bsd.filter { $0.protoRaw == "tcp4" }.allSatisfy { $0.proto == "tcp" && $0.family == "ipv4" })
        #expect(bsd.filter { $0.protoRaw == "udp4" || $0.protoRaw == "udp6" }.allSatisfy { $0.proto == "udp" })
        #expect(windows.contains { $0.stateRaw == "LISTENING" && $0.state == "LISTEN" && $0.proto == "tcp" })
        #expect(windows.contains { $0.local.hasPrefix("[") && $0.family == "ipv6" })
        #expect(windows.filter { $0.proto == "udp" }.allSatisfy { $0.state == nil })
        for sockets in [ss, netstat, bsd, windows] {
            #expect(sockets.allSatisfy { ["tcp", "udp", "raw"].contains($0.proto ?? "") }, "\(sockets.map(\.proto))")
        }
        let document = try object(NetJSON.encode(sockets: ss), "sockets")
        let row = try #require(document.first { $0["state_raw"] as? String == "ESTAB" })
        #expect(Set(row.keys) == ["proto", "proto_raw", "family", "local", "remote", "state", "state_raw", "pid",
                                  "program"])
        #expect(row["state"] as? String == "ESTABLISHED" && row["proto"] as? String == "tcp")
    }

    @Test func everyStateSpellingHasOneName() {
        let spellings: [(String, String?, String?)] = [
            ("TIME-WAIT", "tcp", "TIME_WAIT"), ("TIME_WAIT", "tcp", "TIME_WAIT"), ("ESTAB", "tcp", "ESTABLISHED"),
            ("LISTENING", "tcp", "LISTEN"), ("SYN-RECV", "tcp", "SYN_RECEIVED"), ("SYN_RCVD", "tcp", "SYN_RECEIVED"),
            ("SYN_RECEIVED", "tcp", "SYN_RECEIVED"), ("FIN-WAIT-1", "tcp", "FIN_WAIT_1"),
            ("FIN_WAIT1", "tcp", "FIN_WAIT_1"), ("FIN_WAIT_2", "tcp", "FIN_WAIT_2"), ("CLOSE", "tcp", "CLOSED"),
            ("CLOSED", "tcp", "CLOSED"), ("UNCONN", "tcp", "CLOSED"), ("UNCONN", "udp", nil),
            ("CLOSE-WAIT", "tcp", "CLOSE_WAIT"), ("LAST-ACK", "tcp", "LAST_ACK"), ("", "udp", nil),
        ]
        for (raw, transport, canonical) in spellings {
            #expect(SocketSpelling.state(raw, transport: transport) == canonical, "\(raw)")
        }
        let protos: [(String, String, String?)] = [
            ("tcp6", "tcp", "ipv6"), ("tcp4", "tcp", "ipv4"), ("tcp46", "tcp", "ipv6"), ("TCP", "tcp", "ipv4"),
            ("udp", "udp", "ipv4"), ("raw6", "raw", "ipv6"), ("icmp6", "icmp6", "ipv4"),
        ]
        for (raw, transport, family) in protos {
            #expect(SocketSpelling.transport(raw) == transport, "\(raw)")
            #expect(SocketSpelling.family(raw, local: "10.0.0.1:22") == family, "\(raw)")
        }
        #expect(SocketSpelling.family("tcp", local: "[::]:22") == "ipv6")
        #expect(SocketSpelling.family(nil, local: "*:22") == nil)
    }
}
