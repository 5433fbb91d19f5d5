import Foundation
import Testing
import TestSupport

/// OpenSSH's options that eSSH does not have say what eSSH does instead (or that it is planned), as a usage error:
/// the sentence, the usage of the command meant, 64. They used to say "Unknown option".
@Suite struct OpenSSHOptionsTests {
    private func essh(_ args: [String]) throws -> RunResult {
        let dir = try TempDir()
        defer { dir.cleanup() }
        return try Binary.runEssh(args, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path])
    }

    @Test func jumpForwardingAndTerminalOptionsSayWhatESSHDoesInstead() throws {
        let cases: [([String], String, String)] = [
            (["-o", "ProxyJump=bastion", "db1"], "-o ProxyJump=bastion is -J bastion in eSSH", "essh shell"),
            (["-o", "ProxyCommand=ssh -W %h:%p gw", "db1"], "-J HOST stands for ProxyCommand ssh -W %h:%p HOST",
             "essh shell"),
            (["-L", "8080:localhost:80", "db1"], "-L (local port forwarding) is essh forward in eSSH: essh forward "
             + "DEST -L [bind:]port:host:hostport", "essh shell"),
            (["db1", "-R", "9000:localhost:9000"], "-R (remote port forwarding) is essh forward in eSSH", "essh shell"),
            (["-D", "1080", "db1"], "-D (dynamic port forwarding, a SOCKS proxy) is essh forward in eSSH: essh "
             + "forward DEST -D [bind:]port", "essh shell"),
            (["exec", "-W", "db1:22", "bastion"], "-W (stdin and stdout joined to a host and port) is essh proxy",
             "essh exec"),
            (["shell", "-N", "db1"], "-N (no command, only forwarding) is essh forward in eSSH", "essh shell"),
            (["forward", "-A", "db1", "-D", "1080"], "-A (agent forwarding) is not supported", "essh forward"),
            (["proxy", "--to", "h:22", "-o", "ProxyJump=b", "db1"], "-o ProxyJump=b is -J b in eSSH", "essh proxy"),
            (["-f", "db1", "uptime"], "-f (go to the background) is not supported", "essh exec"),
            (["shell", "-A", "db1"], "-A (agent forwarding) is not supported", "essh shell"),
            (["-t", "db1", "top"], "-t (force a terminal) is not needed", "essh exec"),
            (["net", "db1", "routes", "-t"], "-t (force a terminal) is not needed", "essh net"),
            (["-o", "StrictHostKeyChecking=accept-new", "db1"], "is --host-key-policy accept-new in eSSH",
             "essh shell"),
            (["-oUserKnownHostsFile=/tmp/kh", "db1"], "-o UserKnownHostsFile=/tmp/kh is --known-hosts /tmp/kh",
             "essh shell"),
            (["-o", "SendEnv=LANG", "db1"], "-o (ssh_config options) is not supported", "essh shell"),
        ]
        for (args, sentence, usage) in cases {
            let r = try essh(args)
            #expect(r.status == 64, "\(args): \(r.err)")
            #expect(r.err.hasPrefix("Error: ") && r.err.contains(sentence), "\(args): \(r.err)")
            #expect(r.err.contains("Usage: \(usage) "), "\(args): \(r.err)")
            #expect(!r.err.contains("Unknown option"), "\(args): \(r.err)")
            #expect(r.out.isEmpty)
        }
    }

    @Test func eSSHsOwnOptionsAndTheRemoteCommandsOptionsAreLeftAlone() throws {
        // -p and -l are eSSH's too; -t after DEST and a command belongs to the remote command (not reached here:
        // the name does not resolve).
        let r = try essh(["-p", "2222", "-l", "me", "no-such-host.invalid", "ls", "-t"])
        #expect(r.status == 255, "\(r.err)")
        #expect(!r.err.contains("-t ("), "\(r.err)")
        // -J is eSSH's now: it reaches the connection (here a name that does not resolve), in every spelling.
        for args in [["-J", "bastion.invalid", "db1.invalid", "true"], ["-Jbastion.invalid", "db1.invalid", "uptime"],
                     ["exec", "--jump", "bastion.invalid", "db1.invalid", "uptime"],
                     ["net", "-J", "bastion.invalid", "db1.invalid", "routes"]] {
            let jump = try essh(args)
            #expect(jump.status == 255 && jump.err.contains("bastion.invalid"), "\(args): \(jump.err)")
            #expect(!jump.err.contains("not supported"), "\(args): \(jump.err)")
        }
        let unknown = try essh(["--frobnicate", "db1"])
        #expect(unknown.status == 64 && unknown.err.contains("Unknown option '--frobnicate'"), "\(unknown.err)")
    }
}
