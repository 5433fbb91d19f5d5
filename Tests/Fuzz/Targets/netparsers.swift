// `make fuzz` compiles this file together with Sources/NetParsers as one module (SwiftPM renames an executable's
// `main`, which clashes with libFuzzer's own); the import is for editors that see the files apart.
#if !NETPARSERS_FUZZ_SINGLE_MODULE
import NetParsers
#endif

/// libFuzzer's entry: every parser, every family, on the same bytes. A crash or sanitizer report is a bug;
/// thrown NetParseErrors are the expected answer to garbage.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for family in FormatFamily.allCases {
        _ = try? NetParser.interfaces(bytes, format: family)
        _ = try? NetParser.routes(bytes, format: family)
        _ = try? NetParser.sockets(bytes, format: family)
    }
    if let result = try? NetParser.interfaces(bytes) {
        _ = TableFormatter().lines(.interfaces(result.items))
        _ = NetJSON.encode(interfaces: result.items)
    }
    return 0
}
