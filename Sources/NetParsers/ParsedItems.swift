/// What a parse of any kind read: one of the three lists with its layout and warnings. Lets callers that choose
/// the kind at run time (`essh parse`, `essh net`, the TUI) print a table or JSON without switching on it.
public enum ParsedItems: Sendable {
    /// Interfaces read from ifconfig, ip addr or ipconfig output.
    case interfaces(ParseResult<Interface>)
    /// Routes read from route, ip route or netstat -rn output.
    case routes(ParseResult<Route>)
    /// Sockets read from netstat or ss output.
    case sockets(ParseResult<Socket>)

    /// The kind of items held.
    public var kind: DataKind {
        switch self {
        case .interfaces: return .interfaces
        case .routes: return .routes
        case .sockets: return .sockets
        }
    }

    /// The layout the text was read as.
    public var format: InputFormat {
        switch self {
        case .interfaces(let r): return r.format
        case .routes(let r): return r.format
        case .sockets(let r): return r.format
        }
    }

    /// One sentence per part of the input that was skipped or only partly understood.
    public var warnings: [String] {
        switch self {
        case .interfaces(let r): return r.warnings
        case .routes(let r): return r.warnings
        case .sockets(let r): return r.warnings
        }
    }

    /// The items as an aligned table.
    public var table: Table {
        switch self {
        case .interfaces(let r): return .interfaces(r.items)
        case .routes(let r): return .routes(r.items)
        case .sockets(let r): return .sockets(r.items)
        }
    }

    /// The document's one member without its braces (`"interfaces":[…]`), for documents that hold several (one
    /// per server in `essh net --tag`).
    public var jsonMember: [UInt8] {
        // The document is `{` member `}` and a newline (NetJSON writes it so).
        Array(json.dropFirst().dropLast(2))
    }

    /// The items as the JSON contract (`{"interfaces":[…]}`, `{"routes":[…]}` or `{"sockets":[…]}`).
    public var json: [UInt8] {
        switch self {
        case .interfaces(let r): return NetJSON.encode(interfaces: r.items)
        case .routes(let r): return NetJSON.encode(routes: r.items)
        case .sockets(let r): return NetJSON.encode(sockets: r.items)
        }
    }
}

extension NetParser {
    /// Reads items of `kind` from raw bytes, detecting the layout within `format`'s family.
    public static func parse(_ input: [UInt8], kind: DataKind, format: FormatFamily = .auto) throws -> ParsedItems {
        switch kind {
        case .interfaces: return .interfaces(try interfaces(input, format: format))
        case .routes: return .routes(try routes(input, format: format))
        case .sockets: return .sockets(try sockets(input, format: format))
        }
    }
}
