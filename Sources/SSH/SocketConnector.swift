import Basics
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Resolves a name and opens a TCP connection, trying every address in turn within the timeout.
enum SocketConnector {
    /// Returns a connected, non-blocking, close-on-exec socket and the address text it reached.
    static func connect(host: String, port: Int, timeout: Double, cancel: Cancellation?,
                        onStage: (ConnectStage) -> Void) throws(SSHError) -> (fd: Int32, address: String) {
        onStage(.resolving)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else {
            let why = String(cString: gai_strerror(rc))
            throw SSHError(.nameNotFound, why,
                           "The name “\(host)” could not be resolved (\(why)): check the spelling or your DNS.")
        }
        defer { freeaddrinfo(list) }
        let deadline = Date().addingTimeInterval(timeout)
        var lastError: SSHError?
        var node: UnsafeMutablePointer<addrinfo>? = first
        while let ai = node {
            node = ai.pointee.ai_next
            let address = Self.text(ai.pointee.ai_addr, ai.pointee.ai_addrlen)
            onStage(.connecting(address: address))
            do throws(SSHError) {
                let fd = try attempt(ai.pointee, address: address, host: host, port: port, deadline: deadline,
                                     timeout: timeout, cancel: cancel)
                return (fd, address)
            } catch {
                if error.kind == .cancelled { throw error }
                lastError = error
                if Date() >= deadline { break }
            }
        }
        throw lastError ?? SSHError(.unreachable, "", "No address of \(host) could be reached.")
    }

    private static func attempt(_ ai: addrinfo, address: String, host: String, port: Int, deadline: Date,
                                timeout: Double, cancel: Cancellation?) throws(SSHError) -> Int32 {
        let fd = socket(ai.ai_family, ai.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), ai.ai_protocol)
        guard fd >= 0 else { throw SSHError(.io, String(cString: strerror(errno)), "Cannot create a socket.") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, socklen_t(MemoryLayout<Int32>.size))
        if Glibc.connect(fd, ai.ai_addr, ai.ai_addrlen) == 0 { return fd }
        guard errno == EINPROGRESS else {
            let e = errno
            close(fd)
            throw error(errno: e, address: address, host: host, port: port, timeout: timeout)
        }
        var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)]
        if let cancel { fds.append(pollfd(fd: cancel.pollDescriptor, events: Int16(POLLIN), revents: 0)) }
        while true {
            let ms = Int32(max(0, deadline.timeIntervalSinceNow * 1000).rounded(.up))
            let n = poll(&fds, nfds_t(fds.count), ms)
            if n < 0 && errno == EINTR { continue }
            if fds.count > 1 && fds[1].revents != 0 {
                close(fd)
                throw SSHError(.cancelled, "", "Connecting to \(host) was cancelled.")
            }
            if n == 0 {
                close(fd)
                throw error(errno: ETIMEDOUT, address: address, host: host, port: port, timeout: timeout)
            }
            break
        }
        var soError: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len)
        if soError != 0 {
            close(fd)
            throw error(errno: soError, address: address, host: host, port: port, timeout: timeout)
        }
        return fd
    }

    static func error(errno e: Int32, address: String, host: String, port: Int, timeout: Double) -> SSHError {
        let detail = String(cString: strerror(e)) + " (\(address) port \(port))"
        switch e {
        case ECONNREFUSED:
            return SSHError(.refused, detail,
                            "\(host) refused the connection on port \(port): no SSH server listens there.")
        case ETIMEDOUT:
            let limit = DurationText.text(timeout, .number)
            return SSHError(.timedOut, detail,
                            "Connecting to \(host) port \(port) timed out after \(limit) s: "
                                + "the host is down or a firewall drops the traffic.")
        case ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL, EAFNOSUPPORT:
            return SSHError(.unreachable, detail, "\(host) is unreachable from here (no route to it).")
        default:
            return SSHError(.io, detail, "Connecting to \(host) port \(port) failed.")
        }
    }

    static func text(_ sa: UnsafeMutablePointer<sockaddr>?, _ len: socklen_t) -> String {
        guard let sa else { return "?" }
        var buf = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        getnameinfo(sa, len, &buf, socklen_t(buf.count), nil, 0, NI_NUMERICHOST)
        return String(cString: buf)
    }
}
