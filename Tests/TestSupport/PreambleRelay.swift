import Foundation

/// A TCP relay on 127.0.0.1 that sends `preamble` to each client first, then joins it to a real server at
/// `targetPort`: an SSH server that, as RFC 4253 §4.2 allows, sends other lines before its identification.
public final class PreambleRelay: @unchecked Sendable {
    // @unchecked: `closed` and `sockets` are only touched with `lock` held; the rest is immutable.
    public let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var closed = false
    private var sockets: [Int32] = []

    public init(preamble: String, targetPort: Int) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = LoopbackListener.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 16) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard ok else { throw ExtraSSHD.Failure(description: "relay: cannot listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
        let bytes = Array(preamble.utf8)
        Thread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var target = LoopbackListener.loopback(port: targetPort)
                let connected = withUnsafePointer(to: &target) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
                    }
                }
                lock.lock()
                sockets += [client, server]
                lock.unlock()
                guard connected else { Glibc.close(client); continue }
                _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                Thread { Self.copy(from: server, to: client) }.start()
                Thread { Self.copy(from: client, to: server) }.start()
            }
        }.start()
    }

    private static func copy(from: Int32, to: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(from, &buffer, buffer.count)
            if n <= 0 { break }
            if buffer.withUnsafeBytes({ send(to, $0.baseAddress, n, Int32(MSG_NOSIGNAL)) }) != n { break }
        }
        shutdown(to, Int32(SHUT_WR))
    }

    public func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !closed else { return }
        closed = true
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        for s in sockets { shutdown(s, Int32(SHUT_RDWR)) }
    }

    deinit { close() }
}
