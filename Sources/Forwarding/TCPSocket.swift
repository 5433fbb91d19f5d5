import Foundation

/// The few socket calls forwarding makes here: a listening socket for -L and -D, a connect for -R's local end.
enum TCPSocket {
    /// What `listen` bound: one socket per address, all at one port.
    struct Bound {
        var fds: [Int32] = []
        /// The addresses bound, in order (those this machine lacks left out).
        var hosts: [String] = []
        var port: Int
    }

    /// Errors that say this machine has no such address family (no IPv6 stack, or IPv6 off on loopback).
    static let familyMissing: Set<Int32> = [EAFNOSUPPORT, EPROTONOSUPPORT, EADDRNOTAVAIL]

    /// Non-blocking listening sockets on each of `hosts` (addresses or names) at `port`; port 0: any free port, the
    /// one the first socket got for the others too (as ssh does). The first host must bind; another is left out when
    /// this machine lacks its family, but a port in use there fails as it would for the first (all or nothing: a
    /// client of `localhost:PORT` must not reach another program on ::1). The sentence names the address:
    /// "127.0.0.1:8080 is already in use".
    static func listen(on hosts: [String], port: Int, for spec: ForwardSpec) throws(ForwardError) -> Bound {
        // Port 0: the port picked for the first address may be taken on another; a few fresh picks.
        var attempts = port == 0 ? 5 : 1
        while true {
            attempts -= 1
            var bound = Bound(port: port)
            var failure: (host: String, miss: Miss)?
            for (index, host) in hosts.enumerated() {
                switch open(host, port: bound.port) {
                case .success(let socket):
                    bound.fds.append(socket.fd)
                    bound.hosts.append(host)
                    bound.port = socket.port
                case .failure(.resolve) where index > 0:
                    continue
                case .failure(.errno(let code)) where index > 0 && familyMissing.contains(code):
                    continue
                case .failure(let miss):
                    failure = (host, miss)
                }
                if failure != nil { break }
            }
            guard let failure else { return bound }
            for fd in bound.fds { close(fd) }
            if case .errno(EADDRINUSE) = failure.miss, port == 0, !bound.fds.isEmpty, attempts > 0 { continue }
            throw error(failure.miss, host: failure.host, port: bound.port, spec: spec)
        }
    }

    /// Why one address could not be listened on.
    enum Miss: Error {
        case errno(Int32)
        case resolve(String)
    }

    /// One listening socket on `host:port`, trying each address the name has, and the port it got.
    private static func open(_ host: String, port: Int) -> Result<(fd: Int32, port: Int), Miss> {
        let addresses: [Address]
        do throws(ForwardError) {
            addresses = try resolve(host, port: port, passive: true)
        } catch {
            return .failure(.resolve(error.message))
        }
        var lastErrno: Int32 = 0
        for address in addresses {
            let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastErrno = errno
                continue
            }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if address.family == AF_INET6 {
                // :: and 0.0.0.0 (and ::1 beside 127.0.0.1) are two sockets, not one that takes both.
                setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            let bound = address.storage.withUnsafeBytes {
                bind(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
            }
            guard bound == 0, Glibc.listen(fd, 128) == 0 else {
                lastErrno = errno
                close(fd)
                continue
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            return .success((fd, localPort(fd) ?? port))
        }
        return .failure(.errno(lastErrno))
    }

    /// A miss as the forward's sentence.
    private static func error(_ miss: Miss, host: String, port: Int, spec: ForwardSpec) -> ForwardError {
        let spot = ForwardSpec.address(host, port)
        switch miss {
        case .resolve(let why):
            return ForwardError(.bind, "\(spec): cannot listen on \(spot): \(why)")
        case .errno(EADDRINUSE):
            return ForwardError(.portInUse, "\(spec): \(spot) is already in use (another program listens there; "
                                + "pick another port, or stop that program).")
        case .errno(EACCES):
            return ForwardError(.bind, "\(spec): listening on \(spot) needs root (ports below 1024); pick a port "
                                + "from 1024 up.")
        case .errno(EADDRNOTAVAIL):
            return ForwardError(.bind, "\(spec): \(host) is not an address of this machine, so nothing can listen "
                                + "on \(spot).")
        case .errno(let code):
            return ForwardError(.bind, "\(spec): cannot listen on \(spot) (\(String(cString: strerror(code)))).")
        }
    }

    /// Connects to `host:port` within `timeout` seconds, trying each address in turn; a blocking socket, or why not.
    static func connect(host: String, port: Int, timeout: Double) -> Result<Int32, ForwardError> {
        let addresses: [Address]
        do throws(ForwardError) {
            addresses = try resolve(host, port: port, passive: false)
        } catch {
            return .failure(error)
        }
        var why = "no address"
        let deadline = Date().addingTimeInterval(timeout)
        for address in addresses {
            let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { continue }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            let rc = address.storage.withUnsafeBytes {
                Glibc.connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
            }
            var failure = rc == 0 ? 0 : errno
            if failure == EINPROGRESS {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ms = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
                if poll(&p, 1, ms) == 1 {
                    var soError: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
                    failure = soError
                } else {
                    failure = ETIMEDOUT
                }
            }
            if failure == 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                return .success(fd)
            }
            close(fd)
            why = failure == ETIMEDOUT ? "no answer within \(Int(timeout)) s" : String(cString: strerror(failure))
        }
        return .failure(ForwardError(.connection, why))
    }

    /// The port a socket is bound to.
    static func localPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard rc == 0 else { return nil }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer -> Int in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        }
    }

    struct Address {
        let family: Int32
        let storage: [UInt8]
        let length: socklen_t
    }

    /// `getaddrinfo` for TCP; a name that does not resolve is a sentence.
    static func resolve(_ host: String, port: Int, passive: Bool) throws(ForwardError) -> [Address] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = passive ? AI_PASSIVE : AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let list else {
            throw ForwardError(.connection, "the name \(host) does not resolve (\(String(cString: gai_strerror(rc))))")
        }
        defer { freeaddrinfo(list) }
        var result: [Address] = []
        var next: UnsafeMutablePointer<addrinfo>? = list
        while let entry = next {
            let info = entry.pointee
            if let address = info.ai_addr {
                let bytes = UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen))
                result.append(Address(family: info.ai_family, storage: Array(bytes), length: info.ai_addrlen))
            }
            next = info.ai_next
        }
        return result
    }
}
