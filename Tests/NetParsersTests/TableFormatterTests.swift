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
}
