import Testing
import NetParsers

/// `NetParser.parse(_:kind:)`, for callers that pick the kind at run time, gives what the per-kind entry points give.
@Suite struct ParsedItemsTests {
    @Test func parseByKindMatchesTheKindsOwnEntryPoint() throws {
        let text = "default via 192.0.2.1 dev eth0\n192.0.2.0/24 dev eth0 proto kernel scope link src 192.0.2.2\n"
        let items = try NetParser.parse(Array(text.utf8), kind: .routes)
        let direct = try NetParser.routes(text)
        #expect(items.kind == .routes && items.format == .ipRoute && items.warnings.isEmpty)
        #expect(items.json == NetJSON.encode(routes: direct.items))
        #expect(items.table == Table.routes(direct.items))
        #expect(throws: NetParseError.self) { try NetParser.parse(Array("  \n".utf8), kind: .sockets) }
    }
}
