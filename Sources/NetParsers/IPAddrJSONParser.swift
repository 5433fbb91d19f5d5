import Foundation

/// Reads `ip -j addr` (and `ip -j -s addr`, whose counters fill rx/tx bytes).
struct IPAddrJSONParser {
    let data: Data

    private struct Link: Decodable {
        let ifname: String?
        let flags: [String]?
        let mtu: Int?
        let address: String?
        let addrInfo: [AddressInfo]?
        let stats64: Stats?

        enum CodingKeys: String, CodingKey {
            case ifname, flags, mtu, address, stats64
            case addrInfo = "addr_info"
        }
    }

    private struct AddressInfo: Decodable {
        let family: String?
        let local: String?
        let prefixlen: Int?
        let broadcast: String?
        let scope: String?
    }

    private struct Stats: Decodable {
        struct Counter: Decodable { let bytes: Int? }
        let rx: Counter?
        let tx: Counter?
    }

    func parse() throws -> ParseResult<Interface> {
        let links: [Link]
        do {
            links = try JSONDecoder().decode([Link].self, from: data)
        } catch {
            throw NetParseError(code: .unrecognised, tried: [.ipAddrJSON], underlying: "invalid ip -j JSON: \(error)")
        }
        var warnings: [String] = []
        var items: [Interface] = []
        for (n, link) in links.enumerated() {
            guard let name = link.ifname else {
                warnings.append("entry \(n + 1): no ifname, skipped")
                continue
            }
            var interface = Interface(name: name, mtu: link.mtu)
            if let flags = link.flags { interface.state = flags.contains("UP") ? .up : .down }
            if let address = link.address {
                interface.mac = address.utf8.withContiguousStorageIfAvailable { ByteText(bytes: $0).mac(0..<$0.count) }
                    ?? nil
            }
            interface.rxBytes = link.stats64?.rx?.bytes
            interface.txBytes = link.stats64?.tx?.bytes
            for info in link.addrInfo ?? [] {
                guard let local = info.local else { continue }
                if info.family == "inet" {
                    interface.ipv4.append(IPv4Address(address: local, prefix: info.prefixlen, broadcast: info.broadcast,
                                                      scope: info.scope))
                } else if info.family == "inet6" {
                    let bare = local.split(separator: "%", maxSplits: 1).first.map(String.init) ?? local
                    interface.ipv6.append(IPv6Address(address: bare, prefix: info.prefixlen, scope: info.scope))
                } else {
                    warnings.append("\(name): address family \(info.family ?? "none") skipped")
                }
            }
            items.append(interface)
        }
        return ParseResult(items: items, format: .ipAddrJSON, warnings: warnings)
    }
}
