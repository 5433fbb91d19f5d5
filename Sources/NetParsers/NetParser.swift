import Foundation

/// The entry points: text (or bytes) in, typed models out. Pure: no I/O, no global state.
public enum NetParser {
    /// Reads interfaces from `ifconfig`, `ip addr` (text, `-o`, `-j`) or `ipconfig` output.
    public static func interfaces(_ input: String, format: FormatFamily = .auto) throws -> ParseResult<Interface> {
        try interfaces(Array(input.utf8), format: format)
    }

    /// Reads interfaces from raw bytes (invalid UTF-8 is replaced, never fatal).
    public static func interfaces(_ input: [UInt8], format: FormatFamily = .auto) throws -> ParseResult<Interface> {
        try run(input, kind: .interfaces, family: format) { text, chosen in
            switch chosen {
            case .ifconfigLinuxOld: return IfconfigOldParser(text: text).parse()
            case .ifconfigLinux, .ifconfigBSD: return IfconfigParser(text: text).parse()
            case .ipAddr, .ipAddrOneLine: return IPAddrParser(text: text).parse()
            case .ipAddrJSON: return try IPAddrJSONParser(data: Data(text.bytes)).parse()
            default: return IpconfigParser(text: text).parse()
            }
        }
    }

    /// Reads routes from `route -n`, `route -6 -n`, `ip route`, `netstat -rn` or Windows `route print` output.
    public static func routes(_ input: String, format: FormatFamily = .auto) throws -> ParseResult<Route> {
        try routes(Array(input.utf8), format: format)
    }

    /// Reads routes from raw bytes.
    public static func routes(_ input: [UInt8], format: FormatFamily = .auto) throws -> ParseResult<Route> {
        try run(input, kind: .routes, family: format) { text, chosen in
            switch chosen {
            case .routeLinux, .routeLinux6, .netstatRoutesLinux: return RouteTableParser(text: text).parse()
            case .ipRoute: return IPRouteParser(text: text).parse()
            case .netstatRoutesBSD: return BSDRouteParser(text: text).parse()
            default: return WindowsRouteParser(text: text).parse()
            }
        }
    }

    /// Reads Internet sockets from `netstat` (Linux, FreeBSD, macOS, Windows) or `ss` output.
    public static func sockets(_ input: String, format: FormatFamily = .auto) throws -> ParseResult<Socket> {
        try sockets(Array(input.utf8), format: format)
    }

    /// Reads Internet sockets from raw bytes.
    public static func sockets(_ input: [UInt8], format: FormatFamily = .auto) throws -> ParseResult<Socket> {
        try run(input, kind: .sockets, family: format) { text, chosen in
            switch chosen {
            case .netstatLinux: return LinuxNetstatParser(text: text).parse()
            case .ss: return SSParser(text: text).parse()
            case .netstatBSD: return BSDNetstatParser(text: text).parse()
            default: return WindowsNetstatParser(text: text).parse()
            }
        }
    }

    /// Detects the layout among the candidates, parses, and turns "nothing recognised" into an error.
    private static func run<Item>(
        _ input: [UInt8], kind: DataKind, family: FormatFamily,
        _ parse: (ByteText, InputFormat) throws -> ParseResult<Item>
    ) throws -> ParseResult<Item> {
        let candidates = InputFormat.candidates(kind: kind, family: family)
        guard !candidates.isEmpty else { throw NetParseError(code: .formatNotForKind, tried: []) }
        return try input.withUnsafeBufferPointer { buffer in
            let text = ByteText(bytes: buffer)
            guard buffer.contains(where: { !(isSpace($0) || $0 == 0x0A || $0 == 0x0D) }) else { throw NetParseError(code: .empty, tried: candidates) }
            let detected = FormatDetector(text: text).detect(among: candidates)
            // A named family with a single layout is read as that layout even without its marks.
            guard let chosen = detected ?? (candidates.count == 1 ? candidates[0] : nil) else {
                throw NetParseError(code: .unrecognised, tried: candidates)
            }
            let result = try parse(text, chosen)
            if result.items.isEmpty && !result.warnings.isEmpty {
                throw NetParseError(code: .unrecognised, tried: candidates,
                                    underlying: "read as \(chosen.rawValue): \(result.warnings[0])")
            }
            return result
        }
    }
}
