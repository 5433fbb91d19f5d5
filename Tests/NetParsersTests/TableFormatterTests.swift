import Testing
@testable import NetParsers

@Suite struct TableFormatterTests {
    @Test func interfacesTableAlignsColumnsAndPutsOneAddressPerRow() {
        let table = Table.interfaces([
            Interface(name: "eth0", state: .up, mtu: 1500, mac: "00:11:22:33:44:55",
                      ipv4: [IPv4Address(address: "10.0.0.1", prefix: 24)],
                      ipv6: [IPv6Address(address: "fe80::1", prefix: 64, scope: "link")]),
            Interface(name: "lo", state: .down),
        ])
        #expect(TableFormatter().lines(table) == [
            "DEVICE  STATE   MTU  IP ADDRESS  PREFIX  SCOPE  HARDWARE ADDRESS",
            "eth0    up     1500  10.0.0.1        24         00:11:22:33:44:55",
            "                     fe80::1         64  link",
            "lo      down",
        ])
    }

    @Test func widthsCountDisplayColumnsNotCharacters() {
        let table = Table(columns: [.init("A"), .init("B")], rows: [["日本", "x"], ["ab", "y"]])
        #expect(TableFormatter().widths(table) == [4, 1])
        #expect(TableFormatter().lines(table) == ["A     B", "日本  x", "ab    y"])
    }

    /// Found by `make fuzz` (netparsers: a table line must hold nothing a terminal obeys): cells kept what the remote
    /// command printed, so an interface named `eth\e[2J` cleared the screen of whoever ran `essh net`. Cells show
    /// controls as pictures and stay on their line; the JSON keeps the name as it was, escaped.
    @Test func controlCharactersInCellsAreShownNotObeyed() throws {
        let output = Array("eth\u{1B}[2J\r1: flags=4163<UP,RUNNING>  mtu 1500\n        inet 10.0.0.5  netmask 255.255.255.0\n".utf8)
        let result = try NetParser.interfaces(output, format: .ifconfig)
        #expect(result.items.first?.name == "eth\u{1B}[2J\r1")
        let lines = TableFormatter().lines(.interfaces(result.items))
        #expect(lines.count == 2)
        #expect(lines[1].hasPrefix("eth␛[2J␍1  up"))
        #expect(String(decoding: NetJSON.encode(interfaces: result.items), as: UTF8.self).contains(#""eth\u001b[2J\r1""#))
    }

    /// Warnings quote the input (an ip -j entry's name) and go to stderr: shown, never obeyed.
    @Test func warningsQuotingTheInputAreShownNotObeyed() throws {
        let json = #"[{"ifname":"e\u001b]0;x\u0007","addr_info":[{"family":"bridge","local":"x"}]}]"#
        let result = try NetParser.interfaces(Array(json.utf8), format: .ip)
        #expect(result.warnings == ["e␛]0;x␇: address family bridge skipped"])
    }
}
