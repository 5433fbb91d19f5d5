import Foundation
import LocalProcess
import SSH
import Synchronization
import TestSupport
@testable import Forwarding

/// Options for one sshd of the jump topology, trusting the topology's host keys.
func hop(_ s: TestServers, _ server: TestServers.NamespaceServer, port: Int? = nil, name: String? = nil)
    -> ConnectOptions
{
    var o = ConnectOptions(host: server.host, port: port ?? server.port, user: s.user, knownHostsFile: s.jump.knownHosts)
    o.globalKnownHostsFiles = []
    o.identityFiles = [s.key("id_ed25519")]
    o.useAgent = false
    o.allowPassword = false
    o.connectTimeout = 5
    o.name = name
    return o
}

/// A program running in the background (a Python server in a namespace), killed when the test lets go of it.
final class Background: @unchecked Sendable {
    let pid: pid_t
    let dir: TempDir

    /// Runs python3 with `script` (argv: the rest), in `netns` when given; waits until it writes "ready" to the
    /// file named by its first argument.
    init(python script: String, netns: String?, arguments: [String]) throws {
        dir = try TempDir()
        let scriptPath = dir.file("server.py")
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        let ready = dir.file("ready")
        let log = open(dir.file("log"), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer { close(log); close(devNull) }
        let python = ["/usr/bin/python3", scriptPath, ready] + arguments
        let argv = netns.map { ["/usr/sbin/ip", "netns", "exec", $0] + python } ?? python
        pid = try ChildProcess.spawn(argv[0], Array(argv.dropFirst()), stdin: devNull, stdout: log, stderr: log,
                                     closeOtherDescriptors: true, newSession: true)
        for _ in 0..<100 {
            if (try? String(contentsOfFile: ready, encoding: .utf8))?.contains("ready") == true { return }
            usleep(50_000)
        }
        stop()
        throw TmuxSession.Failure(description: "the server did not start: "
                              + ((try? String(contentsOfFile: dir.file("log"), encoding: .utf8)) ?? ""))
    }

    /// The port the server wrote after "ready ".
    var port: Int {
        let text = (try? String(contentsOfFile: dir.file("ready"), encoding: .utf8)) ?? ""
        return Int(text.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }

    func stop() {
        kill(pid, SIGKILL)
        _ = ChildProcess.wait(pid, timeout: 5)
    }

    deinit {
        stop()
        dir.cleanup()
    }

    /// A threaded TCP echo server on HOST PORT (0: any); echoes until the client's end-of-file, then closes.
    static let echo = """
        import socket, sys, threading
        s = socket.socket(socket.AF_INET6 if ':' in sys.argv[2] else socket.AF_INET)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((sys.argv[2], int(sys.argv[3])))
        s.listen(512)
        def serve(c):
            while True:
                d = c.recv(65536)
                if not d:
                    break
                c.sendall(d)
            c.shutdown(socket.SHUT_WR)
            c.close()
        open(sys.argv[1], 'w').write('ready %d' % s.getsockname()[1])
        while True:
            c, _ = s.accept()
            threading.Thread(target=serve, args=(c,), daemon=True).start()
        """

    /// An HTTP server for a folder: HOST PORT FOLDER.
    static let http = """
        import functools, http.server, sys
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[4])
        class Quiet(handler.func):
            def log_message(self, *a):
                pass
        server = http.server.ThreadingHTTPServer((sys.argv[2], int(sys.argv[3])),
                                                 functools.partial(Quiet, directory=sys.argv[4]))
        open(sys.argv[1], 'w').write('ready %d' % server.server_address[1])
        server.serve_forever()
        """
}

/// Sends `bytes` to 127.0.0.1:`port`, ends its side, and reads everything back until end-of-file.
func exchange(port: Int, _ bytes: [UInt8], host: String = "127.0.0.1") throws -> [UInt8] {
    let fd = try connectTCP(host: host, port: port)
    defer { close(fd) }
    var sent = 0
    while sent < bytes.count {
        let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
        guard n > 0 else { throw TmuxSession.Failure(description: "send: \(String(cString: strerror(errno)))") }
        sent += n
    }
    shutdown(fd, Int32(SHUT_WR))
    return readToEnd(fd)
}

func readToEnd(_ fd: Int32) -> [UInt8] {
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(fd, &buffer, buffer.count)
        if n <= 0 { break }
        out += buffer[..<n]
    }
    return out
}

/// A blocking socket connected to host:port (with a 20 s receive limit so a stall fails the test).
func connectTCP(host: String, port: Int) throws -> Int32 {
    let result = TCPSocket.connect(host: host, port: port, timeout: 5)
    guard case .success(let fd) = result else {
        if case .failure(let error) = result { throw error }
        fatalError()
    }
    var limit = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    return fd
}

/// Collects a forwarder's events.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [ForwardEvent] = []

    func add(_ event: ForwardEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var all: [ForwardEvent] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }

    var lines: [String] { all.map(\.line) }

    /// Waits until a line containing `text` came (at most `seconds`).
    func wait(for text: String, seconds: Double = 10) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if lines.contains(where: { $0.contains(text) }) { return true }
            usleep(20_000)
        }
        return false
    }
}

/// The port a `.listening` event reported for `spec`.
func listeningPort(_ forwarder: Forwarder, _ index: Int = 0) -> Int {
    guard case .listening(_, let address, _) = forwarder.listening[index] else { return 0 }
    return Int(address.split(separator: ":").last ?? "") ?? 0
}

/// Runs curl with `args`; its stdout.
func curl(_ args: [String]) throws -> RunResult {
    try Spawn.run("/usr/bin/curl", ["-s", "--max-time", "10"] + args, timeout: 20)
}

/// Why `withoutIPv6Loopback` could not set its namespace up.
struct NamespaceFailure: Error, CustomStringConvertible {
    let description: String
}

/// Runs `body` on a thread of its own in a new network namespace whose loopback is up without IPv6 (as on a machine
/// booted without it); sockets made there stay there. Needs root, as the harness does.
func withoutIPv6Loopback<T: Sendable>(_ body: @escaping @Sendable () throws -> T) throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        defer { done.signal() }
        func fail(_ what: String) {
            result.withLock { $0 = .failure(NamespaceFailure(description: "\(what): errno \(errno)")) }
        }
        // unshare(2) is not in Swift's Glibc module; CLONE_NEWNET for this thread only.
        typealias Unshare = @convention(c) (Int32) -> Int32
        guard let symbol = dlsym(nil, "unshare"), unsafeBitCast(symbol, to: Unshare.self)(0x4000_0000) == 0 else {
            return fail("unshare(CLONE_NEWNET)")
        }
        let knob = open("/proc/sys/net/ipv6/conf/lo/disable_ipv6", O_WRONLY | O_CLOEXEC)
        guard knob >= 0, write(knob, "1", 1) == 1 else { return fail("disable_ipv6") }
        close(knob)
        let s = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(s) }
        var request = ifreq()
        withUnsafeMutableBytes(of: &request.ifr_ifrn.ifrn_name) { $0.copyBytes(from: Array("lo".utf8)) }
        guard ioctl(s, UInt(SIOCGIFFLAGS), &request) == 0 else { return fail("SIOCGIFFLAGS") }
        request.ifr_ifru.ifru_flags |= Int16(IFF_UP)
        guard ioctl(s, UInt(SIOCSIFFLAGS), &request) == 0 else { return fail("bringing lo up") }
        do {
            let value = try body()
            result.withLock { $0 = .success(value) }
        } catch {
            result.withLock { $0 = .failure(error) }
        }
    }
    thread.start()
    done.wait()
    return try result.withLock { $0! }.get()
}
