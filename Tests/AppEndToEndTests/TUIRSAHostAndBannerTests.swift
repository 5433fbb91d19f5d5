import Foundation
import Testing
import TestSupport

/// The real `essh` interface in tmux against an sshd whose only host key is RSA, logging in with an RSA key, and
/// an sshd that sends a pre-login banner (libssh2 1.11).
@Suite("essh TUI: RSA-only host, RSA key, banner", .serialized)
struct TUIRSAHostAndBannerTests {
    @Test func anRSAOnlyHostIsAskedAboutSavedAndLoggedIntoWithAnRSAKey() throws {
        let servers = try TestServers.require()
        let sshd = try ExtraSSHD(servers: servers, hostKeys: ["rsa"])
        defer { sshd.stop() }
        let fingerprint = try Binary.run("/usr/bin/ssh-keygen", ["-lf", servers.hostKeys + "/ssh_host_rsa_key.pub"])
            .out.split(separator: " ")[1]
        let essh = try EsshInTmux(servers: [.box(login: .key("id_rsa"), port: sshd.port)], knownHosts: .empty)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "box")
        try tmux.press("Enter")
        let question = try tmux.waitFor(text: String(fingerprint))
        #expect(question.joined().contains("ssh-rsa") || question.joined().contains("RSA"), "\(question)")
        try tmux.type("yes")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try tmux.type("echo rsa-ok")
        try tmux.press("Enter")
        try tmux.waitFor(text: "[exit 0")
        #expect(try tmux.screen().contains("rsa-ok"))
        // Saved with its real type, where OpenSSH finds it.
        let found = try Binary.run("/usr/bin/ssh-keygen", ["-F", "[127.0.0.1]:\(sshd.port)", "-f", essh.knownHosts])
        #expect(found.status == 0 && found.out.contains("ssh-rsa"), "\(found.out)")
        try essh.endSession()
        try essh.quit()
    }

    @Test func theBannerShowsWhileThePasswordIsAsked() throws {
        let servers = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        chmod(dir.path, 0o755)
        try "Authorised use only.\n\u{1B}[2J\u{1B}[31mAll access is logged.\n".write(
            toFile: dir.file("banner"), atomically: true, encoding: .utf8)
        chmod(dir.file("banner"), 0o644)
        let sshd = try ExtraSSHD(servers: servers, extra: ["Banner \"\(dir.file("banner"))\""])
        defer { sshd.stop() }
        let essh = try EsshInTmux(servers: [.box(login: .password, port: sshd.port)], knownHosts: .empty)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "box")
        try tmux.press("Enter")
        try tmux.waitFor(text: "SHA256:")
        try tmux.type("yes")
        try tmux.press("Enter")
        let screen = try tmux.waitFor(text: "Password for \(servers.user)@")
        #expect(screen.contains { $0.contains("Message from the server") }, "\(screen)")
        #expect(screen.contains { $0.contains("Authorised use only.") })
        #expect(screen.contains { $0.contains("All access is logged.") }, "the clear-screen escape did nothing")
        try tmux.type(servers.password)
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try essh.endSession()
        try essh.quit()
    }
}
