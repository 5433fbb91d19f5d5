/// The server side of a SOCKS handshake (RFC 1928 SOCKS5 without authentication, CONNECT only, IPv4, IPv6 and domain
/// names; SOCKS4 and 4a), as a state machine that does no I/O. The caller shows it every byte the client has sent
/// that was not consumed yet (peeked, so bytes after the request stay in the socket for the tunnel), sends what it
/// says to send, and once it names a target, answers with `reply(_:)`.
public struct SOCKSHandshake: Sendable {
    public enum Version: Int, Sendable { case socks4 = 4, socks5 = 5 }

    /// What the client is owed at the end (RFC 1928 §6; SOCKS4 has only granted or rejected).
    public enum Reply: UInt8, Sendable {
        case succeeded = 0
        case generalFailure = 1
        case notAllowed = 2
        case networkUnreachable = 3
        case hostUnreachable = 4
        case connectionRefused = 5
        case ttlExpired = 6
        case commandNotSupported = 7
        case addressTypeNotSupported = 8
    }

    public enum Result: Sendable, Equatable {
        /// More bytes are needed.
        case needMore
        /// The client asked to connect to host:port; answer with `reply(_:)`.
        case connect(host: String, port: Int)
        /// The handshake failed; `reason` says why (the bytes to send were given with it).
        case failed(reason: String)
    }

    public struct Step: Sendable, Equatable {
        /// Bytes of the input taken (receive them from the socket now).
        public let consumed: Int
        /// Bytes to send the client now.
        public let send: [UInt8]
        public let result: Result
    }

    private enum Stage: Sendable { case greeting, request, done }
    private var stage = Stage.greeting
    /// The version the client speaks, once its first byte came.
    public private(set) var version: Version?

    public init() {}

    /// Reads what it can of `input` (the bytes not consumed yet, oldest first).
    public mutating func step(_ input: [UInt8]) -> Step {
        switch stage {
        case .done:
            return Step(consumed: 0, send: [], result: .failed(reason: "the handshake is over"))
        case .greeting:
            guard let first = input.first else { return Step(consumed: 0, send: [], result: .needMore) }
            switch first {
            case 5:
                version = .socks5
                guard input.count >= 2, input.count >= 2 + Int(input[1]) else {
                    return Step(consumed: 0, send: [], result: .needMore)
                }
                let methods = input[2..<(2 + Int(input[1]))]
                guard methods.contains(0) else {
                    stage = .done
                    return Step(consumed: 2 + Int(input[1]), send: [5, 0xFF],
                                result: .failed(reason: "the client offers no method without authentication"))
                }
                stage = .request
                let greeting = Step(consumed: 2 + Int(input[1]), send: [5, 0], result: .needMore)
                // A client may send its request right behind the greeting.
                let rest = Array(input[greeting.consumed...])
                let next = rest.isEmpty ? nil : step(rest)
                guard let next else { return greeting }
                return Step(consumed: greeting.consumed + next.consumed, send: greeting.send + next.send,
                            result: next.result)
            case 4:
                version = .socks4
                return socks4(input)
            default:
                stage = .done
                return Step(consumed: input.count, send: [],
                            result: .failed(reason: "not a SOCKS client (first byte \(first))"))
            }
        case .request:
            return socks5Request(input)
        }
    }

    /// The answer to the request, for the version the client speaks. The bound address is left zero, as OpenSSH
    /// does (clients do not use it for CONNECT).
    public func reply(_ reply: Reply) -> [UInt8] {
        if version == .socks4 {
            return [0, reply == .succeeded ? 90 : 91, 0, 0, 0, 0, 0, 0]
        }
        return [5, reply.rawValue, 0, 1, 0, 0, 0, 0, 0, 0]
    }

    private mutating func socks5Request(_ input: [UInt8]) -> Step {
        guard input.count >= 5 else { return Step(consumed: 0, send: [], result: .needMore) }
        guard input[0] == 5 else {
            return fail(input.count, .generalFailure, "a request of SOCKS version \(input[0]) after a SOCKS5 greeting")
        }
        let addressType = input[3]
        let addressLength: Int
        switch addressType {
        case 1: addressLength = 4
        case 4: addressLength = 16
        case 3: addressLength = 1 + Int(input[4])
        default: return fail(input.count, .addressTypeNotSupported, "address type \(addressType) is not SOCKS5's")
        }
        let total = 4 + addressLength + 2
        guard input.count >= total else { return Step(consumed: 0, send: [], result: .needMore) }
        guard input[1] == 1 else {
            let command = input[1] == 2 ? "BIND" : input[1] == 3 ? "UDP ASSOCIATE" : "command \(input[1])"
            return fail(total, .commandNotSupported, "\(command) is not supported (CONNECT only)")
        }
        let address = Array(input[4..<(4 + addressLength)])
        let host: String
        switch addressType {
        case 1: host = address.map(String.init).joined(separator: ".")
        case 4: host = Self.ipv6Text(address)
        default:
            let name = address.dropFirst()
            guard !name.isEmpty, let text = String(bytes: name, encoding: .utf8),
                  !text.contains(where: { $0.isWhitespace || $0 == "\0" })
            else { return fail(total, .generalFailure, "the domain name is empty or not text") }
            host = text
        }
        let port = Int(input[total - 2]) << 8 | Int(input[total - 1])
        guard port > 0 else { return fail(total, .generalFailure, "port 0 cannot be connected to") }
        stage = .done
        return Step(consumed: total, send: [], result: .connect(host: host, port: port))
    }

    private mutating func socks4(_ input: [UInt8]) -> Step {
        guard input.count >= 9 else { return Step(consumed: 0, send: [], result: .needMore) }
        // VER CMD PORT(2) IP(4) USERID NUL [HOST NUL] (4a: IP 0.0.0.x, x not 0, then the host name).
        guard let userEnd = input[8...].firstIndex(of: 0) else {
            return input.count > 8 + 256 ? fail(input.count, .generalFailure, "the SOCKS4 user name is too long")
                : Step(consumed: 0, send: [], result: .needMore)
        }
        let port = Int(input[2]) << 8 | Int(input[3])
        let ip = Array(input[4..<8])
        var consumed = userEnd + 1
        var host = ip.map(String.init).joined(separator: ".")
        if ip[0] == 0 && ip[1] == 0 && ip[2] == 0 && ip[3] != 0 {
            guard let hostEnd = input[consumed...].firstIndex(of: 0) else {
                return input.count > consumed + 256 ? fail(input.count, .generalFailure, "the SOCKS4a name is too long")
                    : Step(consumed: 0, send: [], result: .needMore)
            }
            guard hostEnd > consumed, let name = String(bytes: input[consumed..<hostEnd], encoding: .utf8) else {
                return fail(hostEnd + 1, .generalFailure, "the SOCKS4a host name is empty or not text")
            }
            host = name
            consumed = hostEnd + 1
        }
        guard input[1] == 1 else { return fail(consumed, .commandNotSupported, "SOCKS4 BIND is not supported") }
        guard port > 0 else { return fail(consumed, .generalFailure, "port 0 cannot be connected to") }
        stage = .done
        return Step(consumed: consumed, send: [], result: .connect(host: host, port: port))
    }

    private mutating func fail(_ consumed: Int, _ code: Reply, _ reason: String) -> Step {
        stage = .done
        return Step(consumed: consumed, send: reply(code), result: .failed(reason: reason))
    }

    /// An IPv6 address as text (RFC 5952: the longest run of zero groups as `::`, lowercase hex).
    static func ipv6Text(_ bytes: [UInt8]) -> String {
        let groups = stride(from: 0, to: 16, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
        var best = (start: -1, length: 0)
        var i = 0
        while i < 8 {
            if groups[i] == 0 {
                var j = i
                while j < 8 && groups[j] == 0 { j += 1 }
                if j - i > best.length && j - i > 1 { best = (i, j - i) }
                i = j
            } else {
                i += 1
            }
        }
        let hex = groups.map { String($0, radix: 16) }
        if best.start < 0 { return hex.joined(separator: ":") }
        let head = hex[..<best.start].joined(separator: ":")
        let tail = hex[(best.start + best.length)...].joined(separator: ":")
        return head + "::" + tail
    }
}
