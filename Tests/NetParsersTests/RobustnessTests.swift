import Testing
@testable import NetParsers
import TestSupport

/// Random and mutated inputs never crash, hang or invent: every parser either returns a result or throws
/// NetParseError. A seeded generator keeps failures reproducible.
@Suite struct RobustnessTests {
    private func parseAll(_ bytes: [UInt8]) {
        for family in FormatFamily.allCases {
            _ = try? NetParser.interfaces(bytes, format: family)
            _ = try? NetParser.routes(bytes, format: family)
            _ = try? NetParser.sockets(bytes, format: family)
        }
    }

    @Test func mutatedFixturesNeverCrash() throws {
        var rng = SeededGenerator(seed: 0xE55E)
        for name in try Fixture.all() {
            let original = try Fixture.bytes(name)
            for round in 0..<30 {
                var b = original
                switch round % 5 {
                case 0: b = Array(b.prefix(Int.random(in: 0...b.count, using: &rng)))
                case 1:
                    for _ in 0..<8 where !b.isEmpty { b[Int.random(in: 0..<b.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
                case 2:
                    var lines = b.split(separator: 0x0A, omittingEmptySubsequences: false)
                    lines.shuffle(using: &rng)
                    b = Array(lines.joined(separator: [0x0A]))
                case 3:
                    for _ in 0..<6 where !b.isEmpty { b.insert(contentsOf: [0xFF, 0xC3, 0x28, 0xE2, 0x82], at: Int.random(in: 0...b.count, using: &rng)) }
                default:
                    let cut = Int.random(in: 0...b.count, using: &rng)
                    b = Array(b[cut...] + b[..<cut])
                }
                parseAll(b)
            }
        }
    }

    @Test func randomBytesAndNearMissTextNeverCrash() {
        var rng = SeededGenerator(seed: 42)
        let pieces = ["eth0: flags=", "<UP,", ">  mtu ", " inet ", " inet6 ", "netmask ", "0x", "255.", "::", "/",
                      "Link encap:", "HWaddr ", "1: ", "@", "link/ether ", "peer ", " adapter ", " : ", "Subnet Mask",
                      "Kernel IP routing table", "Destination Gateway Genmask", "Next Hop", "Internet6:", "default ",
                      "via ", "dev ", "nexthop", "Proto Recv-Q Send-Q Local Address", "(state)", "Netid", "users:((\"",
                      "pid=", "Active Connections", "TCP ", "[", "]", "...", "On-link", "\n", "\r\n", "\t", " ", "9"]
        for _ in 0..<400 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...60, using: &rng) {
                if Bool.random(using: &rng) {
                    bytes += Array(pieces.randomElement(using: &rng)!.utf8)
                } else {
                    bytes.append(UInt8.random(in: 0...255, using: &rng))
                }
            }
            parseAll(bytes)
        }
    }

    /// Found by `make fuzz` (netparsers): a BSD netstat -rn header naming Flags after Netif (or twice) made a row
    /// with fewer fields read past its last token, which stopped the program. Rows without the gateway or interface
    /// are skipped with a warning; a missing flags field is no flags.
    @Test func aBSDRouteRowShorterThanItsHeaderIsReadOrSkippedNotACrash() throws {
        let text = """
            Routing tables

            Internet:
            Destination        Gateway            Netif Expire Flags
            default            192.0.2.1          en0
            192.0.2            link#4             en0   1200   UC
            127.0.0.1          127.0.0.1

            """
        let result = try NetParser.routes(Array(text.utf8), format: .netstat)
        #expect(result.items.map(\.destination) == ["0.0.0.0/0", "192.0.2.0/24"])
        #expect(result.items.map(\.flags) == [nil, "UC"])
        #expect(result.warnings == ["line 7: not a netstat -rn route row, skipped"])
    }
}

