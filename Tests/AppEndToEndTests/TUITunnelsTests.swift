import Foundation
import Testing
import TestSupport

/// The Tunnels screen in a real terminal, against a bastion sshd of the test's own in b1's namespace: a saved tunnel
/// to t1's sshd (reachable only from b1) started, bytes moved through it and counted, kept up while a session on
/// another server runs a command, shown reconnecting after the sessions serving it are killed, stopped, started again,
/// and on quit the interface says how many tunnels it stopped.
@Suite("essh TUI: tunnels", .serialized)
struct TUITunnelsTests {
    /// The first bytes the server at 127.0.0.1:port sends, after sending `hello` (bytes each way).
    private static func exchange(_ port: Int) -> String {
        let fd = LoopbackListener.connectClient(port: port)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        let hello = Array("SSH-2.0-tunnel-test\r\n".utf8)
        _ = hello.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let n = read(fd, &bytes, bytes.count)
        return n > 0 ? String(decoding: bytes[..<n], as: UTF8.self) : ""
    }

    /// The screen's row of the tunnel `forward`.
    private static func row(_ screen: [String], _ forward: String) -> String {
        screen.first { $0.contains(forward) && !$0.contains(":  ") } ?? screen.first { $0.contains(forward) } ?? ""
    }

    @Test func startMoveBytesStopReconnectAndQuitSayingHowManyRan() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let sshd = try NamespaceSSHD(s.jump.b1, servers: s)
        defer { sshd.stop() }
        // The topology's keys, and b1's key at the test sshd's port (the same machine on another port).
        var known = try String(contentsOfFile: s.jump.knownHosts, encoding: .utf8)
        let key = try String(contentsOfFile: s.jump.b1.hostKeys + "/ssh_host_ed25519_key.pub", encoding: .utf8)
            .split(separator: " ")
        known += "[\(s.jump.b1.host)]:\(sshd.port) \(key[0]) \(key[1])\n"
        try known.write(toFile: dir.file("known_hosts"), atomically: true, encoding: .utf8)
        let forward = "L:0:\(s.jump.t1.host):\(s.jump.t1.port)"
        let env = ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path]
        for args in [["servers", "add", "bastion", "--host", s.jump.b1.host, "--port", "\(sshd.port)", "--user",
                      s.user, "--key", s.key("id_ed25519"), "--forward", forward],
                     ["servers", "add", "b1", "--host", s.jump.b1.host, "--user", s.user, "--key",
                      s.key("id_ed25519")]] {
            let r = try Binary.runEssh(args, environment: env)
            #expect(r.status == 0, "\(r.err)")
        }
        let essh = try EsshInTmux(knownHosts: .empty, homeInFolder: true, in: dir, width: 110, height: 24)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "bastion")
        try tmux.press("u")
        try tmux.waitFor(text: "eSSH — Tunnels")
        #expect(Self.row(try tmux.screen(), forward).contains("stopped"))
        try tmux.press("s")
        let up = try tmux.waitFor(text: "up, on 127.0.0.1:")
        let line = Self.row(up, forward)
        let port = Int(line.components(separatedBy: "127.0.0.1:").last?.prefix { $0.isNumber } ?? "") ?? 0
        #expect(port > 0, "\(up)")
        // Bytes through the tunnel: the greeting of t1's sshd comes back, ours goes out; the counts move.
        #expect(Self.exchange(port).hasPrefix("SSH-2.0-OpenSSH"))
        let counted = try tmux.waitFor("bytes counted") { screen in
            let fields = Self.row(screen, forward).split(separator: " ").map(String.init)
            // … Out value, unit, In value, unit: both non-zero.
            guard let b = fields.lastIndex(of: "B") ?? fields.lastIndex(of: "kB") else { return false }
            return fields.count > 4 && fields[b - 1] != "0" && fields[b - 3] != "0"
        }
        #expect(Self.row(counted, forward).contains("up, on 127.0.0.1:\(port)"))

        // Elsewhere in the interface: a session on b1 runs a command; the tunnel keeps serving meanwhile.
        try tmux.press("Escape")
        try tmux.waitFor(text: "b1")
        try tmux.press("Home")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.type("echo TUNNEL-STILL-$((40+2))")
        try tmux.press("Enter")
        try tmux.waitFor(text: "TUNNEL-STILL-42")
        #expect(Self.exchange(port).hasPrefix("SSH-2.0-OpenSSH"), "the tunnel serves while a session runs")
        try essh.endSession()
        try tmux.press("Enter")
        try tmux.waitFor(text: "bastion")
        try tmux.press("u")
        try tmux.waitFor(text: "up, on 127.0.0.1:\(port)")

        // The sessions serving it are killed: reconnecting, then up again (on a new port: it asked for any).
        sshd.killSessions()
        try tmux.waitFor(text: "reconnecting in", timeout: 20)
        try tmux.waitFor("up again", timeout: 30) { Self.row($0, forward).contains("up, on 127.0.0.1:") }

        try tmux.press("x")
        try tmux.waitFor("stopped") { Self.row($0, forward).contains("stopped") }
        try tmux.press("s")
        try tmux.waitFor("up") { Self.row($0, forward).contains("up, on 127.0.0.1:") }
        try tmux.press("Escape")
        try tmux.waitFor(text: "Connect")
        try tmux.press("q")
        let end = try essh.waitForExit(0)
        #expect(end.contains { $0.contains("eSSH stopped 1 tunnel that was running.") }, "\(end)")
    }
}
