import Foundation

/// The sshd processes serving one client's connection, found through /proc: the client's TCP socket to the
/// test server's port, the server side of that same connection, and every process holding that socket (the
/// per-connection `sshd: USER [priv]` child of the harness's listener, and its session child). Tests kill or
/// stop exactly these — never the listener (its pid is in the harness's pid file) and never another test's
/// connection.
public struct SSHDConnection: Sendable {
    /// The processes holding the server end of the connection, and the `[priv]` monitor among their parents.
    public let pids: [Int32]

    /// Finds the connection from `clientPid` (or one of its descendants) to 127.0.0.1/::1 `port`, whose server
    /// processes descend from `listenerPid`; nil when there is none (yet).
    public static func find(clientPid: Int32, port: Int, listenerPid: Int32) -> SSHDConnection? {
        let tcp = tcpSockets()
        let clientProcesses = [clientPid] + descendants(of: clientPid)
        let clientInodes = Set(clientProcesses.flatMap(socketInodes))
        guard let clientSide = tcp.first(where: { clientInodes.contains($0.inode) && $0.remotePort == port })
        else { return nil }
        return find(clientPort: clientSide.localPort, port: port, listenerPid: listenerPid, sockets: tcp)
    }

    /// Finds the connection whose client end is local port `clientPort` (a socket of the test process itself, when
    /// other tests connect too), as `find(clientPid:…)`.
    public static func find(clientPort: Int, port: Int, listenerPid: Int32) -> SSHDConnection? {
        find(clientPort: clientPort, port: port, listenerPid: listenerPid, sockets: tcpSockets())
    }

    private static func find(clientPort: Int, port: Int, listenerPid: Int32, sockets tcp: [TCPSocket])
        -> SSHDConnection? {
        guard let serverSide = tcp.first(where: { $0.localPort == port && $0.remotePort == clientPort })
        else { return nil }
        let serverProcesses = descendants(of: listenerPid)
        var pids = serverProcesses.filter { socketInodes($0).contains(serverSide.inode) }
        // The monitor (`[priv]`, the listener's child) goes too, or it would tidy up politely.
        for pid in pids where parent(of: pid) != listenerPid {
            if let p = parent(of: pid), serverProcesses.contains(p), !pids.contains(p) { pids.append(p) }
        }
        return pids.isEmpty ? nil : SSHDConnection(pids: pids)
    }

    /// Waits up to `timeout` seconds for the connection to show up.
    public static func wait(clientPid: Int32, port: Int, listenerPid: Int32, timeout: Double = 10) -> SSHDConnection? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let c = find(clientPid: clientPid, port: port, listenerPid: listenerPid) { return c }
            usleep(50_000)
        }
        return nil
    }

    /// Sends `signal` to every process of the connection.
    public func signal(_ signal: Int32) {
        for pid in pids { kill(pid, signal) }
    }

    /// The listener's pid, from the harness's pid file.
    public static func listenerPid(stateDir: String, name: String = "main") -> Int32? {
        (try? String(contentsOfFile: stateDir + "/\(name).pid", encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// All processes below `pid`.
    public static func descendants(of pid: Int32) -> [Int32] {
        var children: [Int32: [Int32]] = [:]
        for p in allPids() { if let pp = parent(of: p) { children[pp, default: []].append(p) } }
        var out: [Int32] = []
        var queue = [pid]
        while let next = queue.popLast() {
            for c in children[next] ?? [] { out.append(c); queue.append(c) }
        }
        return out
    }

    /// The first process below `pid` whose command name starts with `name` (`essh` inside a tmux pane).
    public static func descendant(of pid: Int32, named name: String) -> Int32? {
        descendants(of: pid).first {
            ((try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8)) ?? "").hasPrefix(name)
        }
    }

    static func allPids() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
    }

    static func parent(of pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    static func socketInodes(_ pid: Int32) -> [UInt64] {
        let dir = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).compactMap { fd in
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/" + fd),
                  link.hasPrefix("socket:[") else { return nil }
            return UInt64(link.dropFirst(8).dropLast())
        }
    }

    struct TCPSocket { let localPort: Int; let remotePort: Int; let inode: UInt64 }

    static func tcpSockets() -> [TCPSocket] {
        var out: [TCPSocket] = []
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read to the end: /proc files report size 0, and a read sized by it stops after the first page.
            guard let data = FileHandle(forReadingAtPath: file)?.readDataToEndOfFile() else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                let f = line.split(separator: " ")
                guard f.count > 9, let local = f[1].split(separator: ":").last,
                      let remote = f[2].split(separator: ":").last, let lp = Int(local, radix: 16),
                      let rp = Int(remote, radix: 16), let inode = UInt64(f[9])
                else { continue }
                out.append(TCPSocket(localPort: lp, remotePort: rp, inode: inode))
            }
        }
        return out
    }
}
