import Foundation
import NetParsers

/// Every parser of every family on the same bytes. A crash or sanitizer report is a bug; a thrown NetParseError is
/// the expected answer to garbage. What a parse finds must come out as valid JSON and as a table.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput(data, size).bytes
    for family in FormatFamily.allCases {
        _ = try? NetParser.interfaces(bytes, format: family)
        _ = try? NetParser.routes(bytes, format: family)
        _ = try? NetParser.sockets(bytes, format: family)
    }
    if let result = try? NetParser.interfaces(bytes) {
        check(.interfaces(result.items), json: NetJSON.encode(interfaces: result.items))
    }
    if let result = try? NetParser.routes(bytes) {
        check(.routes(result.items), json: NetJSON.encode(routes: result.items))
    }
    if let result = try? NetParser.sockets(bytes) {
        check(.sockets(result.items), json: NetJSON.encode(sockets: result.items))
    }
    return 0
}

/// The JSON contract is written by hand: whatever the input held, it must stay JSON.
private func check(_ table: Table, json: [UInt8]) {
    _ = TableFormatter().lines(table)
    require((try? JSONSerialization.jsonObject(with: Data(json))) != nil,
            "NetJSON wrote invalid JSON: \(String(decoding: json.prefix(300), as: UTF8.self))")
}
