import Foundation
import Testing
import TestSupport

/// `I` in the real interface on a saved password server: the password asked in the masked field, each step in the
/// box, the switch question answered Yes, and the server saved with key login. The sshd gives logins a home of this
/// test's own (`SetEnv HOME`, a `TestUserFolder`), so the shared test user's authorized_keys is never touched.
@Suite("essh TUI: key install")
struct TUIKeyInstallTests {
    @Test func capitalIInstallsTheKeyAndSwitchesThePasswordServer() throws {
        let s = try TestServers.require()
        let home = try TestUserFolder(servers: s)
        defer { home.cleanup() }
        let sshd = try ExtraSSHD(servers: s, extra: ["SetEnv HOME=\(home.path)"],
                                 authorizedKeys: home.file(".ssh/authorized_keys"))
        defer { sshd.stop() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.file(".ssh"), withIntermediateDirectories: true)
        let made = try Binary.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "mine",
                                                          "-f", dir.file(".ssh/id_ed25519")])
        #expect(made.status == 0, "\(made.err)")
        let essh = try EsshInTmux(servers: [.init("pw", host: sshd.host, port: sshd.port, login: .password)],
                                  unset: ["SSH_AUTH_SOCK"], homeInFolder: true, in: dir)
        defer { essh.stop() }
        try (sshd.knownHostsLine(servers: s, keyType: "ed25519") + "\n")
            .write(toFile: essh.knownHosts, atomically: true, encoding: .utf8)
        let tmux = essh.tmux
        try tmux.waitFor(text: "pw")
        try tmux.press("I")
        try tmux.waitFor(text: "Password for \(s.user)@")
        try tmux.type(s.password)
        try tmux.press("Enter")
        try tmux.waitFor(text: "Switch pw from password to the key", timeout: 30)
        try tmux.press("y")
        try tmux.waitFor(text: "Saved pw.")
        let screen = try tmux.screen().joined(separator: "\n")
        #expect(screen.contains("Appended the key to ~/.ssh/authorized_keys."), "\(screen)")
        #expect(screen.contains("Switching pw to the key"), "\(screen)")
        try tmux.press("Escape")
        let show = try essh.run(["servers", "show", "pw"])
        #expect(show.out.contains("auth            key\n"), "\(show.out)")
        let keys = try String(contentsOfFile: home.file(".ssh/authorized_keys"), encoding: .utf8)
        let pub = try String(contentsOfFile: dir.file(".ssh/id_ed25519.pub"), encoding: .utf8)
        #expect(keys == pub, "\(keys)")
        try essh.quit()
    }
}
