import Foundation
import NetParsers

/// The parsers on the bytes: as detected, and as the family the input's length picks (every family in turn as
/// mutations change the length; forcing every family on every input took 70% of the time, docs/DECISIONS.md
/// 2026-11-24). A crash or sanitizer report is a bug; a thrown NetParseError is the expected
/// answer to garbage. What a parse finds must come out as valid JSON and as a table safe to print.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    let family = forcedFamilies[bytes.count % forcedFamilies.count]
    checkWarnings((try? NetParser.interfaces(bytes, format: family))?.warnings ?? [])
    checkWarnings((try? NetParser.routes(bytes, format: family))?.warnings ?? [])
    checkWarnings((try? NetParser.sockets(bytes, format: family))?.warnings ?? [])
    if let result = try? NetParser.interfaces(bytes) {
        checkWarnings(result.warnings)
        check(.interfaces(result.items), json: NetJSON.encode(interfaces: result.items))
    }
    if let result = try? NetParser.routes(bytes) {
        checkWarnings(result.warnings)
        check(.routes(result.items), json: NetJSON.encode(routes: result.items))
    }
    if let result = try? NetParser.sockets(bytes) {
        checkWarnings(result.warnings)
        check(.sockets(result.items), json: NetJSON.encode(sockets: result.items))
    }
    return 0
}

private let forcedFamilies = FormatFamily.allCases.filter { $0 != .auto }

/// The JSON contract is written by hand: whatever the input held, it must stay JSON. The table goes to a terminal
/// (`essh parse`, `essh net`): nothing in it may be obeyed, and each row is one line.
private func check(_ table: Table, json: [UInt8]) {
    let lines = TableFormatter().lines(table)
    require(lines.count == table.rows.count + 1, "\(table.rows.count) rows in \(lines.count) lines")
    for line in lines {
        require(!line.unicodeScalars.contains(where: isUnsafe), "table line \(line.debugDescription)")
    }
    require((try? JSONSerialization.jsonObject(with: Data(json))) != nil,
            "NetJSON wrote invalid JSON: \(String(decoding: json.prefix(300), as: UTF8.self))")
}

/// Warnings go to stderr, a terminal too.
private func checkWarnings(_ warnings: [String]) {
    for warning in warnings {
        require(!warning.unicodeScalars.contains(where: isUnsafe), "warning \(warning.debugDescription)")
    }
}

/// Controls (C0, DEL, C1) and bidirectional overrides: what a terminal would obey or show reversed.
private func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
}
