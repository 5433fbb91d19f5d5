import Glibc

/// One resolved IPv4 or IPv6 address with its port, ready for connect(2).
struct SocketAddress: Sendable {
    var storage = sockaddr_storage()
    var length: socklen_t = 0

    var family: Int32 { Int32(storage.ss_family) }

    init?(_ info: UnsafePointer<addrinfo>) {
        guard let address = info.pointee.ai_addr,
              Int(info.pointee.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size else { return nil }
        length = info.pointee.ai_addrlen
        withUnsafeMutableBytes(of: &storage) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.pointee.ai_addrlen)))
        }
    }

    /// The address as text, `127.0.0.1` or `::1`.
    var text: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var copy = storage
        let ok: Bool = withUnsafePointer(to: &copy) { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout<sockaddr_storage>.size) { bytes in
                if family == AF_INET {
                    let inAddr = UnsafeRawPointer(bytes).advanced(by: 4)
                    return inet_ntop(AF_INET, inAddr, &buffer, socklen_t(buffer.count)) != nil
                }
                let in6Addr = UnsafeRawPointer(bytes).advanced(by: 8)
                return inet_ntop(AF_INET6, in6Addr, &buffer, socklen_t(buffer.count)) != nil
            }
        }
        return ok ? String(cString: buffer) : "?"
    }

    var key: [UInt8] {
        var copy = storage
        return withUnsafeBytes(of: &copy) { Array($0.prefix(Int(length))) }
    }

    /// Resolves `host`:`port` to every TCP address; `numericOnly` never touches DNS (safe on the event loop).
    static func resolve(host: String, port: Int, numericOnly: Bool) -> Result<[SocketAddress], ResolveFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (numericOnly ? AI_NUMERICHOST : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0, let first = list else {
            return .failure(ResolveFailure(code: code, systemErrno: errno))
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var seen = Set<[UInt8]>()
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let current = node {
            if let address = SocketAddress(current), seen.insert(address.key).inserted { addresses.append(address) }
            node = current.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(ResolveFailure(code: EAI_FAIL, systemErrno: 0)) : .success(addresses)
    }
}

/// Why getaddrinfo failed.
struct ResolveFailure: Error, Sendable {
    var code: Int32
    var systemErrno: Int32

    var isNotNumeric: Bool { code == EAI_NONAME }

    var message: String {
        if code == EAI_SYSTEM { return String(cString: strerror(systemErrno)) }
        return String(cString: gai_strerror(code))
    }
}
