import Foundation
import Testing
import TestSupport
@testable import NetParsers

/// Every interface, address, MAC, MTU, route and Internet socket that jc found in the shared corpus
/// (../shared/fixtures/network, real outputs; its .json files are jc's reading with jc's schema) must be found by
/// eSSH too. The corpus is read in place, never copied into the repository.
@Suite struct ConformanceTests {
    static let corpus = RepoPaths.shared + "/fixtures/network"

    private func corpusFiles() throws -> [String] {
        guard let systems = try? FileManager.default.contentsOfDirectory(atPath: Self.corpus) else {
            Issue.record("The shared conformance corpus is missing: expected \(Self.corpus) (../shared/fixtures/network).")
            return []
        }
        var files: [String] = []
        for system in systems.sorted() {
            let dir = Self.corpus + "/" + system
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasSuffix(".out") {
                files.append(system + "/" + String(name.dropLast(4)))
            }
        }
        return files.sorted()
    }

    private func load(_ stem: String) throws -> (bytes: [UInt8], jc: Any) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + stem + ".out")))
        let jc = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.corpus + "/" + stem + ".json")))
        return (bytes, jc)
    }

    @Test func theCorpusIsThereAndCoversEveryKind() throws {
        let files = try corpusFiles()
        #expect(files.count >= 18, "expected the 18 outputs of ../shared/fixtures/network, found \(files.count)")
    }

    @Test func everyInterfaceAddressMACAndMTUIsFound() throws {
        var checked = 0
        for stem in try corpusFiles() where stem.contains("ifconfig") || stem.contains("ipconfig") {
            let (bytes, jc) = try load(stem)
            let ours = try NetParser.interfaces(bytes).items
            let expected = stem.contains("ipconfig") ? Self.fromIpconfig(jc) : Self.fromIfconfig(jc)
            #expect(!expected.isEmpty, "\(stem): jc found nothing?")
            for want in expected {
                checked += 1
                guard let got = ours.first(where: { $0.name == want.name }) else {
                    Issue.record("\(stem): interface \(want.name) not found; eSSH found \(ours.map(\.name))")
                    continue
                }
                if let mtu = want.mtu { #expect(got.mtu == mtu, "\(stem) \(want.name) mtu") }
                if let mac = want.mac { #expect(got.mac == mac, "\(stem) \(want.name) mac") }
                for a in want.ipv4 {
                    #expect(got.ipv4.contains { $0.address == a.address && (a.prefix == nil || $0.prefix == a.prefix) },
                            "\(stem) \(want.name) ipv4 \(a)")
                }
                for a in want.ipv6 {
                    #expect(got.ipv6.contains { $0.address == a.address && (a.prefix == nil || $0.prefix == a.prefix) },
                            "\(stem) \(want.name) ipv6 \(a)")
                }
            }
        }
        #expect(checked > 10)
    }

    @Test func everyRouteIsFound() throws {
        var checked = 0
        for stem in try corpusFiles() where stem.contains("route") || stem.contains("netstat-r") {
            let (bytes, jc) = try load(stem)
            let ours = try NetParser.routes(bytes).items
            for entry in (jc as? [[String: Any]]) ?? [] {
                guard var destination = entry["destination"] as? String ?? entry["ip"] as? String
                        ?? entry["network"] as? String else { continue }
                checked += 1
                // jc shifts the columns of Windows persistent routes (its gateway is the metric, its genmask the
                // gateway): for those only the network itself is compared.
                let persistent = entry["network"] != nil
                let gateway = persistent ? nil : (entry["gateway"] ?? entry["next_hop"] ?? entry["via"]) as? String
                let iface = (entry["iface"] ?? entry["dev"]) as? String
                let metric = entry["metric"] as? Int
                if destination == "default" { destination = "" }
                let mask = persistent ? nil : entry["genmask"] as? String
                let found = ours.contains { r in
                    let matchesDestination = destination.isEmpty
                        ? (r.destination == "0.0.0.0/0" || r.destination == "::/0")
                        : (r.destination == destination || r.destination.hasPrefix(destination + "/")
                           || Self.stripZone(destination).map { r.destination.hasPrefix($0) } == true
                           || r.destination == destination.replacingOccurrences(of: "%", with: ""))
                    let prefixOK = mask.flatMap(Self.prefix(ofMask:)).map { r.destination.hasSuffix("/\($0)") } ?? true
                    let gatewayOK = gateway.map { g in
                        ["0.0.0.0", "::", "*", "On-link"].contains(g) || g.hasPrefix("link#")
                            ? r.gateway == nil : r.gateway == g
                    } ?? true
                    let ifaceOK = iface.map { i in i.allSatisfy(\.isNumber) || r.interface == i } ?? true
                    let metricOK = metric == nil || r.metric == metric
                    return matchesDestination && prefixOK && gatewayOK && ifaceOK && metricOK
                }
                #expect(found, "\(stem): route \(entry) not found")
            }
        }
        #expect(checked > 50)
    }

    @Test func everyInternetSocketIsFound() throws {
        var checked = 0
        for stem in try corpusFiles() where stem.contains("netstat") && !stem.contains("netstat-r") || stem.contains("ss-") {
            let (bytes, jc) = try load(stem)
            let ours = try NetParser.sockets(bytes).items
            for entry in (jc as? [[String: Any]]) ?? [] {
                let proto = ((entry["proto"] ?? entry["netid"]) as? String ?? "").lowercased()
                guard ["tcp", "udp", "raw"].contains(where: proto.hasPrefix) else { continue }
                guard let address = entry["local_address"] as? String, let port = entry["local_port"] as? String else {
                    continue
                }
                checked += 1
                let bare = address.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
                let remotePort = (entry["foreign_port"] ?? entry["peer_port"]) as? String
                let state = entry["state"] as? String
                let found = ours.contains { s in
                    // jc keeps what the tool printed: compared with the spelling as printed, kept beside ours.
                    s.protoRaw?.lowercased() == proto && s.local.hasSuffix(":" + port) && s.local.contains(bare)
                        && (remotePort.map { s.remote?.hasSuffix(":" + $0) == true } ?? true)
                        && (state.map { s.stateRaw == $0 } ?? true)
                }
                #expect(found, "\(stem): socket \(proto) \(address):\(port) \(state ?? "") not found")
            }
        }
        #expect(checked > 250)
    }

    // MARK: jc's schema → what to look for

    private struct Expected {
        var name: String
        var mtu: Int?
        var mac: String?
        var ipv4: [(address: String, prefix: Int?)] = []
        var ipv6: [(address: String, prefix: Int?)] = []
    }

    private static func fromIfconfig(_ jc: Any) -> [Expected] {
        ((jc as? [[String: Any]]) ?? []).map { e in
            var x = Expected(name: e["name"] as? String ?? "", mtu: e["mtu"] as? Int,
                             mac: (e["mac_addr"] as? String)?.lowercased())
            for a in (e["ipv4"] as? [[String: Any]]) ?? [] {
                guard let address = a["address"] as? String else { continue }
                x.ipv4.append((address, (a["mask"] as? String).flatMap(prefix(ofMask:))))
            }
            if x.ipv4.isEmpty, let address = e["ipv4_addr"] as? String {
                x.ipv4.append((address, (e["ipv4_mask"] as? String).flatMap(prefix(ofMask:))))
            }
            for a in (e["ipv6"] as? [[String: Any]]) ?? [] {
                guard let address = a["address"] as? String else { continue }
                x.ipv6.append((stripZone(address) ?? address, a["mask"] as? Int))
            }
            if x.ipv6.isEmpty, let address = e["ipv6_addr"] as? String {
                x.ipv6.append((stripZone(address) ?? address, e["ipv6_mask"] as? Int))
            }
            return x
        }
    }

    private static func fromIpconfig(_ jc: Any) -> [Expected] {
        let adapters = ((jc as? [String: Any])?["adapters"] as? [[String: Any]]) ?? []
        return adapters.map { a in
            var x = Expected(name: a["name"] as? String ?? "",
                             mac: (a["physical_address"] as? String)?.lowercased().replacingOccurrences(of: "-", with: ":"))
            for v4 in (a["ipv4_addresses"] as? [[String: Any]]) ?? [] {
                guard let address = v4["address"] as? String else { continue }
                x.ipv4.append((address, (v4["subnet_mask"] as? String).flatMap(prefix(ofMask:))))
            }
            for key in ["ipv6_addresses", "temporary_ipv6_addresses", "link_local_ipv6_addresses"] {
                for v6 in (a[key] as? [[String: Any]]) ?? [] {
                    // jc reads the `%zone` of a link-local address as a prefix length; the input gives no prefix.
                    if let address = v6["address"] as? String { x.ipv6.append((stripZone(address) ?? address, nil)) }
                }
            }
            return x
        }
    }

    private static func stripZone(_ s: String) -> String? {
        s.split(separator: "%", maxSplits: 1).first.map(String.init)
    }

    private static func prefix(ofMask mask: String) -> Int? {
        let parts = mask.split(separator: ".").compactMap { UInt8($0) }
        guard parts.count == 4 else { return nil }
        return parts.reduce(0) { $0 + $1.nonzeroBitCount }
    }
}
