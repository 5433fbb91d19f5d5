import Foundation
import Testing
import TestSupport

/// The interface with a saved server behind a bastion (the harness's t1, reachable only through b1): the
/// Connecting screen lists the hops with their stages, and the session runs commands on t1.
@Suite("essh TUI: jump hosts")
struct TUIJumpHostTests {
    @Test func aServerBehindABastionShowsItsHopsWhileConnectingThenRunsCommands() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        // b1's key is known, t1's is not: its question holds the Connecting screen, with the hops in view.
        let known = try String(contentsOfFile: s.jump.knownHosts, encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("[\(s.jump.t1.host)]") }.joined(separator: "\n") + "\n"
        try known.write(toFile: dir.file("known_hosts"), atomically: true, encoding: .utf8)
        let env = ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path]
        try s.saveBastionAndTarget(environment: env)
        let essh = try EsshInTmux(knownHosts: .empty, homeInFolder: true, in: dir, width: 80, height: 24)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "t1")
        try tmux.press("Down")
        try tmux.press("Enter")
        let asked = try tmux.waitFor(text: "Unknown host key")
        #expect(asked.contains { $0.contains("Through jump hosts:") }, "\(asked)")
        #expect(asked.contains { $0.contains("1. b1 (jump host): logged in, passed through") }, "\(asked)")
        #expect(asked.contains { $0.contains("2. t1: Verifying the host key") }, "\(asked)")
        try tmux.type("yes")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.type("echo AT-$(echo $SSH_CONNECTION | cut -d' ' -f3) && hostname")
        try tmux.press("Enter")
        try tmux.waitFor(text: "AT-\(s.jump.t1.host)")
        try essh.endSession()
        try essh.quit()
        // The accepted key was written under t1's own name.
        let written = try String(contentsOfFile: dir.file("known_hosts"), encoding: .utf8)
        #expect(written.split(separator: "\n").count > known.split(separator: "\n").count)
    }
}
