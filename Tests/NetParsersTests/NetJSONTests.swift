import Foundation
import Testing
@testable import NetParsers

@Suite struct NetJSONTests {
    private struct Doc<T: Decodable>: Decodable {
        let interfaces: [T]?, routes: [T]?, sockets: [T]?
    }

    @Test func interfacesJSONHasEveryKeyWithNullsAndDecodesBackToTheModels() throws {
        let items = try NetParser.interfaces(Fixture.bytes("linux/ip-addr.out")).items
        let bytes = NetJSON.encode(interfaces: items)
        let decoded = try JSONDecoder().decode(Doc<Interface>.self, from: Data(bytes))
        #expect(decoded.interfaces == items)
        let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: [[String: Any]]]
        let tun = try #require(object?["interfaces"]?.first { $0["name"] as? String == "tun0" })
        #expect(Set(tun.keys) == ["name", "state", "mtu", "mac", "ipv4", "ipv6", "rx_bytes", "tx_bytes"])
        #expect(tun["mac"] is NSNull)
        #expect(tun["rx_bytes"] is NSNull)
    }

    @Test func routesAndSocketsRoundTripAndEscapeStrings() throws {
        let routes = [Route(destination: "0.0.0.0/0", gateway: nil, interface: "we\"ird\\\n\u{1}", metric: -1, flags: nil)]
        #expect(try JSONDecoder().decode(Doc<Route>.self, from: Data(NetJSON.encode(routes: routes))).routes == routes)
        let sockets = try NetParser.sockets(Fixture.bytes("linux/ss-tulpn.out")).items
        #expect(try JSONDecoder().decode(Doc<Socket>.self, from: Data(NetJSON.encode(sockets: sockets))).sockets == sockets)
        #expect(String(decoding: NetJSON.encode(routes: []), as: UTF8.self) == "{\"routes\":[]}\n")
    }
}
