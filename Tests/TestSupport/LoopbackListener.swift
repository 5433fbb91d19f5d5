import Foundation

/// Real TCP listeners on 127.0.0.1 playing the servers an online check meets: one that sends a line (an SSH banner
/// or something else), one that accepts and never speaks, one whose backlog is full so it never answers, and a
/// port where nothing listens. Close them with `close()`.
public final class LoopbackListener: @unchecked Sendable {
    public enum Behaviour: Sendable {
        /// Accepts and writes `line` (CRLF added), then keeps the connection open until closed.
        case sends(String)
        /// Accepts and never writes.
        case silent
        /// Listens with backlog 0, never accepts; filled by connections first, so later SYNs are dropped.
        case backlogFull
        /// Accepts and writes `text` over and over, never a line end, until the client goes away (a hostile peer
        /// streaming bytes instead of an SSH identification).
        case floods(String)
    }

    public let port: Int
    private let fd: Int32
    private var fillers: [Int32] = []
    private var accepted: [Int32] = []
    private let lock = NSLock()
    private var closed = false
    /// Whether an accept thread owns `fd` (it closes it when it stops).
    private let hasAcceptThread: Bool

    public init(_ behaviour: Behaviour) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.fd = fd
        guard fd >= 0 else { throw ListenerError("socket: \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = LoopbackListener.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw ListenerError("bind: \(String(cString: strerror(errno)))") }
        let backlog: Int32
        if case .backlogFull = behaviour { backlog = 0 } else { backlog = 64 }
        guard listen(fd, backlog) == 0 else { throw ListenerError("listen: \(String(cString: strerror(errno)))") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        self.port = port
        if case .backlogFull = behaviour { hasAcceptThread = false } else { hasAcceptThread = true }
        switch behaviour {
        case .backlogFull:
            for _ in 0..<2 {
                let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
                var target = LoopbackListener.loopback(port: port)
                _ = withUnsafePointer(to: &target) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                fillers.append(client)
            }
            usleep(200_000)
        case .sends(let line):
            let data = Array((line + "\r\n").utf8)
            Thread { [self] in acceptLoop(write: data) }.start()
        case .silent:
            Thread { [self] in acceptLoop(write: nil) }.start()
        case .floods(let text):
            Thread { [self] in acceptLoop(write: nil, flood: Array(text.utf8)) }.start()
        }
    }

    /// A port on 127.0.0.1 where nothing listens (bound a moment ago and released, never listened on).
    public static func closedPort() throws -> Int {
        // Bound only (no listen, no accept thread): a thread accepting on a closed descriptor could steal
        // connections from another test's listener that reuses the descriptor number.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ListenerError("socket: \(String(cString: strerror(errno)))") }
        defer { Glibc.close(fd) }
        var address = LoopbackListener.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw ListenerError("bind: \(String(cString: strerror(errno)))") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    public func close() {
        lock.lock()
        defer { lock.unlock() }
        if closed { return }
        closed = true
        // shutdown wakes a blocked accept. The accept thread closes the descriptor itself: closing it here could
        // let the number be reused by another test's socket before the thread's next accept, which would then
        // take (and drop) that test's connections.
        shutdown(fd, Int32(SHUT_RDWR))
        if !hasAcceptThread { Glibc.close(fd) }
        for client in fillers + accepted { Glibc.close(client) }
    }

    deinit { close() }

    private var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }

    private func acceptLoop(write data: [UInt8]?, flood: [UInt8]? = nil) {
        defer { Glibc.close(fd) }
        while true {
            lock.lock()
            let stop = closed
            lock.unlock()
            if stop { return }
            let client = accept(fd, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            if let data { _ = data.withUnsafeBytes { Glibc.write(client, $0.baseAddress, $0.count) } }
            if let flood {
                let chunk = Array(repeating: flood, count: max(1, 4096 / max(flood.count, 1))).flatMap { $0 }
                Thread { [self] in
                    while !isClosed, chunk.withUnsafeBytes({ Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 {}
                }.start()
            }
            lock.lock()
            if closed {
                lock.unlock()
                Glibc.close(client)
                return
            }
            accepted.append(client)
            lock.unlock()
        }
    }

    /// A TCP connection to 127.0.0.1:`port` (a forward's listening port, a listener here): its descriptor, or -1
    /// when nothing accepted it. The caller closes it.
    public static func connectClient(port: Int) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            Glibc.close(fd)
            return -1
        }
        return fd
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    public struct ListenerError: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
