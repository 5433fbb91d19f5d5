import Foundation
import Testing
import TestSupport

@Suite struct ExecCommandTests {
    func base(_ s: TestServers) -> [String] {
        ["exec", "--known-hosts", s.knownHosts, "-i", s.key("id_ed25519"), "-p", String(s.port)]
    }

    @Test func outputStreamsAndTheExitCodePassThrough() throws {
        let s = try TestServers.require()
        let r = try Binary.runEssh(base(s) + ["\(s.user)@127.0.0.1", "echo out; echo err >&2; exit 7"])
        #expect(r.status == 7)
        #expect(r.out == "out\n")
        #expect(r.err == "err\n")
    }

    @Test func theCommandsOwnFlagsAreNotReadAsEsshs() throws {
        let s = try TestServers.require()
        let r = try Binary.runEssh(base(s) + ["\(s.user)@127.0.0.1", "echo", "-n", "-p", "x"])
        #expect(r.status == 0)
        #expect(r.out == "-p x")
        // With `--`, options may follow DEST.
        let t = try Binary.runEssh(["exec", "\(s.user)@127.0.0.1", "--known-hosts", s.knownHosts, "-i", s.key("id_ed25519"),
                                    "-p", String(s.port), "--timeout", "30", "--", "echo", "ok"])
        #expect(t.status == 0)
        #expect(t.out == "ok\n")
    }

    @Test func aDoubleDashAfterCommandWordsBelongsToTheCommand() throws {
        let s = try TestServers.require()
        // Words that are not exec options stand before the `--`: the command is everything after DEST.
        let r = try Binary.runEssh(base(s) + ["\(s.user)@127.0.0.1", "echo", "a", "--", "b"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "a -- b\n")
        // Options with values and flags before the `--` are still read as exec's.
        let t = try Binary.runEssh(["exec", "\(s.user)@127.0.0.1", "--known-hosts", s.knownHosts, "-n",
                                    "-i", s.key("id_ed25519"), "-p", String(s.port), "--timeout=30", "--", "echo", "ok"])
        #expect(t.status == 0, "\(t.err)")
        #expect(t.out == "ok\n")
    }

    @Test func stdinIsForwardedUnlessDashN() throws {
        let s = try TestServers.require()
        let r = try Binary.runEssh(base(s) + ["\(s.user)@127.0.0.1", "wc -c"], stdin: Data(repeating: 65, count: 100_000))
        #expect(r.out.trimmingCharacters(in: .whitespacesAndNewlines) == "100000")
        let n = try Binary.runEssh(base(s) + ["-n", "\(s.user)@127.0.0.1", "wc -c"], stdin: Data("abc".utf8))
        #expect(n.out.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func aSignalGives128PlusItsNumberAndSaysSo() throws {
        let s = try TestServers.require()
        let r = try Binary.runEssh(base(s) + ["\(s.user)@127.0.0.1", "kill -TERM $$"])
        #expect(r.status == 143)
        #expect(r.err.contains("signal TERM"))
    }

    @Test func aTimeoutGives124() throws {
        let s = try TestServers.require()
        let r = try Binary.runEssh(base(s) + ["--timeout", "0.5", "\(s.user)@127.0.0.1", "sleep 20"], timeout: 15)
        #expect(r.status == 124)
        #expect(r.err.contains("did not finish within 0.5 s"))
    }

    @Test func connectionAndLoginErrorsGive255WithASentence() throws {
        let s = try TestServers.require()
        let refused = try Binary.runEssh(["exec", "--known-hosts", s.knownHosts, "-p", "1", "\(s.user)@127.0.0.1", "true"])
        #expect(refused.status == 255)
        #expect(refused.err.hasPrefix("essh: 127.0.0.1 refused the connection on port 1"))
        let unknown = try Binary.runEssh(["exec", "--known-hosts", "/dev/null", "-i", s.key("id_ed25519"),
                                          "-p", String(s.port), "\(s.user)@127.0.0.1", "true"])
        #expect(unknown.status == 255)
        #expect(unknown.err.contains("is not known"))
        let denied = try Binary.runEssh(["exec", "--known-hosts", s.knownHosts, "-i", s.key("id_unauthorized"), "-p",
                                         String(s.port), "\(s.user)@127.0.0.1", "true"])
        #expect(denied.status == 255)
        #expect(denied.err.contains("Permission denied"))
    }

    @Test func aPasswordComesFromAPrivateFileOnly() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let file = dir.file("pw")
        FileManager.default.createFile(atPath: file, contents: Data((s.password + "\n").utf8),
                                       attributes: [.posixPermissions: 0o644])
        let open = try Binary.runEssh(["exec", "--known-hosts", s.knownHosts, "--password-file", file, "-p",
                                       String(s.port), "\(s.user)@127.0.0.1", "id -un"])
        #expect(open.status != 0)
        #expect(open.err.contains("chmod 600"))
        chmod(file, 0o600)
        let ok = try Binary.runEssh(["exec", "--known-hosts", s.knownHosts, "--password-file", file, "-p",
                                     String(s.port), "\(s.user)@127.0.0.1", "id -un"])
        #expect(ok.status == 0)
        #expect(ok.out == s.user + "\n")
        // Through PAM keyboard-interactive too.
        let kbd = try Binary.runEssh(["exec", "--known-hosts", s.knownHosts, "--password-file", file, "-p",
                                      String(s.kbdPort), "\(s.user)@127.0.0.1", "id -un"])
        #expect(kbd.status == 0)
    }

    @Test func badInputIsRefusedWithAMessage() throws {
        let s = try TestServers.require()
        let conflict = try Binary.runEssh(["exec", "-p", "22", "\(s.user)@127.0.0.1:2222", "true"])
        #expect(conflict.status != 0)
        #expect(conflict.err.contains("give the port once"))
        let noCommand = try Binary.runEssh(["exec", "host1"])
        #expect(noCommand.status != 0)
        #expect(noCommand.err.contains("Give the command"))
        let badPolicy = try Binary.runEssh(["exec", "--host-key-policy", "maybe", "host1", "true"])
        #expect(badPolicy.err.contains("strict, accept-new or ask"))
        let badDest = try Binary.runEssh(["exec", "host1:99999", "true"])
        #expect(badDest.err.contains("1 to 65535"))
    }

    @Test func aSavedServerIsUsedByNameAndItsHistoryKept() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let env = ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path]
        let add = try Binary.runEssh(["servers", "add", "box", "--host", "127.0.0.1", "--port", String(s.port),
                                      "--user", s.user, "--key", s.key("id_ed25519")], environment: env)
        #expect(add.status == 0)
        let r = try Binary.runEssh(["exec", "--known-hosts", s.knownHosts, "box", "echo", "by name"], environment: env)
        #expect(r.status == 0)
        #expect(r.out == "by name\n")
        let list = try Binary.runEssh(["servers", "list", "--json"], environment: env)
        let servers = (try JSONSerialization.jsonObject(with: list.stdout) as? [String: Any])?["servers"] as? [[String: Any]]
        #expect(servers?.first?["last_connected"] is String, "exec by name records the connection: \(list.out)")
        let unknown = try Binary.runEssh(["exec", "--known-hosts", s.knownHosts, "nosuchbox", "true"], environment: env)
        #expect(unknown.status == 255)
        #expect(unknown.err.contains("No saved server is named “nosuchbox”"))
    }
}
