import Foundation
import SSH
import Testing
import TestSupport

/// `essh key install` against a real sshd whose login reads `~/.ssh/authorized_keys` of a home of this test's own
/// (`SetEnv HOME`, a `TestUserFolder`), and `essh key generate` checked by OpenSSH's ssh-keygen and sshd.
@Suite struct KeyCommandTests {
    /// An sshd whose logins get `home` as `$HOME` and read `home/.ssh/authorized_keys`, a local scratch folder with
    /// a fresh key pair (`key`, `key.pub`), the password in a 0600 file, and an empty local `$HOME`.
    final class Fixture {
        let s: TestServers
        let home: TestUserFolder
        let dir: TempDir
        let sshd: ExtraSSHD

        init() throws {
            s = try TestServers.require()
            home = try TestUserFolder(servers: s)
            dir = try TempDir()
            sshd = try ExtraSSHD(servers: s, extra: ["SetEnv HOME=\(home.path)"],
                                 authorizedKeys: home.file(".ssh/authorized_keys"))
            let made = try Binary.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "new key",
                                                              "-f", dir.file("key")])
            #expect(made.status == 0, "\(made.err)")
            FileManager.default.createFile(atPath: dir.file("password"), contents: Data(s.password.utf8),
                                           attributes: [.posixPermissions: 0o600])
            try FileManager.default.createDirectory(atPath: dir.file("home"), withIntermediateDirectories: true)
        }

        deinit {
            sshd.stop()
            home.cleanup()
            dir.cleanup()
        }

        var authorizedKeys: String {
            (try? String(contentsOfFile: home.file(".ssh/authorized_keys"), encoding: .utf8)) ?? "<none>"
        }

        var publicKey: String {
            ((try? String(contentsOfFile: dir.file("key.pub"), encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .newlines)
        }

        /// `essh ARGS` with the scratch `$HOME` and database, no agent, no terminal.
        func essh(_ args: [String]) throws -> RunResult {
            try Spawn.run(Binary.essh, args, environment: [
                "HOME": dir.file("home"), "ESSH_DB": dir.file("essh.db"), "SSH_AUTH_SOCK": nil, "NO_COLOR": "1",
            ], timeout: 60)
        }

        /// `essh key install` of `key.pub` to this sshd by password, with `extra` options before DEST.
        func install(_ dest: String? = nil, _ extra: [String] = []) throws -> RunResult {
            try essh(["key", "install", "-i", dir.file("key.pub"), "--password-file", dir.file("password"),
                      "--known-hosts", dir.file("known_hosts"), "--host-key-policy", "accept-new"] + extra
                     + [dest ?? "\(s.user)@\(sshd.host):\(sshd.port)"])
        }

        /// Logs in with `key` alone.
        func keyLogin(_ key: String) throws -> SSHSession {
            var o = ConnectOptions(host: sshd.host, port: sshd.port, user: s.user, knownHostsFile: dir.file("known_hosts"))
            o.globalKnownHostsFiles = []
            o.hostKeyPolicy = .acceptNew
            o.identityFiles = [key]
            o.useAgent = false
            o.allowPassword = false
            o.allowKeyboardInteractive = false
            return try SSHSession.connect(o)
        }
    }

    func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1
    }

    @Test func installByPasswordThenTheKeyLogsIn() throws {
        let f = try Fixture()
        #expect(throws: SSHError.self, "the key does not log in before") { _ = try f.keyLogin(f.dir.file("key")) }
        let r = try f.install()
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("logged in with the password"), "\(r.out)")
        #expect(r.out.contains("made ~/.ssh (mode 700)") && r.out.contains("appended the key"), "\(r.out)")
        #expect(r.out.contains("logged in again with the key \(f.dir.file("key")) (SHA256:"), "\(r.out)")
        #expect(f.authorizedKeys == f.publicKey + "\n")
        #expect(mode(f.home.file(".ssh")) == 0o700 && mode(f.home.file(".ssh/authorized_keys")) == 0o600)
        let session = try f.keyLogin(f.dir.file("key"))
        session.disconnect()
    }

    @Test func installingTwiceLeavesOneLine() throws {
        let f = try Fixture()
        #expect(try f.install().status == 0)
        let again = try f.install()
        #expect(again.status == 0, "\(again.err)")
        #expect(again.out.contains("in ~/.ssh/authorized_keys already: nothing written"), "\(again.out)")
        #expect(f.authorizedKeys == f.publicKey + "\n")
    }

    @Test func aServerFileWithoutAFinalNewlineStaysValid() throws {
        let f = try Fixture()
        let other = try String(contentsOfFile: f.s.key("id_ecdsa") + ".pub", encoding: .utf8)
            .trimmingCharacters(in: .newlines)
        try f.home.write(other, to: ".ssh/authorized_keys", servers: f.s)
        let r = try f.install()
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("added the newline missing"), "\(r.out)")
        #expect(f.authorizedKeys == other + "\n" + f.publicKey + "\n")
        // Both keys log in: neither line was damaged.
        try f.keyLogin(f.dir.file("key")).disconnect()
        try f.keyLogin(f.s.key("id_ecdsa")).disconnect()
    }

    @Test func aSavedPasswordServerIsSwitchedToTheKeyWhenAsked() throws {
        let f = try Fixture()
        let add = try f.essh(["servers", "add", "box", "--host", f.sshd.host, "--port", String(f.sshd.port),
                              "--user", f.s.user, "--auth", "password"])
        #expect(add.status == 0, "\(add.err)")
        let r = try f.install("box", ["--switch"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("box now logs in with the key \(f.dir.file("key"))"), "\(r.out)")
        let show = try f.essh(["servers", "show", "box"])
        #expect(show.out.contains("auth            key\n") && show.out.contains("key             \(f.dir.file("key"))"),
                "\(show.out)")
        // Without a terminal and without --switch, a password server stays as it is and says how to switch.
        #expect(try f.essh(["servers", "add", "box2", "--host", f.sshd.host, "--port", String(f.sshd.port),
                            "--user", f.s.user, "--auth", "password"]).status == 0)
        let kept = try f.install("box2")
        #expect(kept.status == 0 && kept.out.contains("box2 still logs in by password (essh servers edit box2"),
                "\(kept.out)")
        #expect(try f.essh(["servers", "show", "box2"]).out.contains("auth            password\n"))
    }

    @Test func aSavedServersCredentialSourceGivesThePasswordAndTheKeyIsRemembered() throws {
        let f = try Fixture()
        let add = try f.essh(["servers", "add", "box", "--host", f.sshd.host, "--port", String(f.sshd.port),
                              "--user", f.s.user, "--auth", "password",
                              "--credential", "command:/bin/cat \(f.dir.file("password"))"])
        #expect(add.status == 0, "\(add.err)")
        let r = try f.essh(["key", "install", "-i", f.dir.file("key.pub"), "--known-hosts", f.dir.file("known_hosts"),
                            "--host-key-policy", "accept-new", "box"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("logged in with the password"), "\(r.out)")
        #expect(!r.out.contains(f.s.password) && !r.err.contains(f.s.password))
        #expect(f.authorizedKeys == f.publicKey + "\n")
        let show = try f.essh(["servers", "show", "box"])
        #expect(show.out.contains("last login      file:\(f.dir.file("key"))\n"), "\(show.out)")
        // Next time the remembered key logs in before any password is asked for.
        let again = try f.essh(["key", "install", "-i", f.dir.file("key.pub"), "--known-hosts",
                                f.dir.file("known_hosts"), "box"])
        #expect(again.status == 0 && again.out.contains("box: logged in with the key \(f.dir.file("key"))"),
                "\(again.out) \(again.err)")
        // --password-file still beats the source: a source that gives nothing is not run.
        #expect(try f.essh(["servers", "add", "box2", "--host", f.sshd.host, "--port", String(f.sshd.port),
                            "--user", f.s.user, "--auth", "password", "--credential", "command:/bin/false"]).status == 0)
        let box2 = try f.install("box2")
        #expect(box2.status == 0 && box2.out.contains("logged in with the password"), "\(box2.out) \(box2.err)")
        #expect(!box2.err.contains("credential command"), "\(box2.err)")
    }

    @Test func aPrivateKeyOrAMissingKeyIsRefusedBeforeConnecting() throws {
        let f = try Fixture()
        let r = try f.essh(["key", "install", "-i", f.dir.file("key"), "--password-file", f.dir.file("password"),
                            "\(f.s.user)@\(f.sshd.host):\(f.sshd.port)"])
        #expect(r.status == 2 && r.err.contains("is a private key: give the public one"), "\(r.err)")
        let none = try f.essh(["key", "install", "--password-file", f.dir.file("password"), "x@127.0.0.1"])
        #expect(none.status == 2 && none.err.contains("No key to install"), "\(none.err)")
        #expect(f.authorizedKeys == "<none>")
    }

    // MARK: - generate

    @Test(arguments: [("ed25519", nil), ("ecdsa", "384"), ("rsa", "2048")] as [(String, String?)])
    func generatedKeysAreReadBySSHKeygenWithTheirPassphrase(type: String, bits: String?) throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let passphrase = "correct horse 'battery' $staple"
        FileManager.default.createFile(atPath: dir.file("pass"), contents: Data((passphrase + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
        let key = dir.file("id_new")
        let r = try Spawn.run(Binary.essh, ["key", "generate", "--type", type, "--file", key, "--comment", "me@test",
                                            "--passphrase-file", dir.file("pass")] + (bits.map { ["--bits", $0] } ?? []),
                              environment: ["HOME": dir.path], timeout: 120)
        #expect(r.status == 0, "\(r.err)")
        #expect(mode(key) == 0o600 && mode(key + ".pub") == 0o644)
        let pub = try String(contentsOfFile: key + ".pub", encoding: .utf8)
        let listed = try Binary.run("/usr/bin/ssh-keygen", ["-lf", key + ".pub"])
        #expect(r.out.contains(String(listed.out.split(separator: " ")[1])), "the fingerprint is printed: \(r.out)")
        #expect(r.out.contains(key))
        if let bits { #expect(listed.out.hasPrefix(bits + " ")) }
        // In the test only, the passphrase goes on ssh-keygen's command line.
        let derived = try Binary.run("/usr/bin/ssh-keygen", ["-y", "-P", passphrase, "-f", key])
        #expect(derived.status == 0, "\(derived.err)")
        #expect(derived.out.split(separator: " ").prefix(2) == pub.split(separator: " ").prefix(2))
        let unlocked = try Binary.run("/usr/bin/ssh-keygen", ["-y", "-P", "", "-f", key])
        #expect(unlocked.status != 0, "the key is protected by the passphrase")
    }

    @Test func anUnencryptedGeneratedKeyLogsInOnceAuthorized() throws {
        let f = try Fixture()
        let key = f.dir.file("made")
        let r = try f.essh(["key", "generate", "--file", key, "--no-passphrase"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("no passphrase"))
        try f.home.write(try String(contentsOfFile: key + ".pub", encoding: .utf8), to: ".ssh/authorized_keys",
                         servers: f.s)
        let session = try f.keyLogin(key)
        #expect(session.loginIdentity.fingerprint == (try PublicKeyText.fingerprint(key + ".pub")))
        session.disconnect()
    }

    @Test func theDefaultFileIsInTheSSHFolderMadePrivate() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try Spawn.run(Binary.essh, ["key", "generate", "--type", "ecdsa", "--no-passphrase"],
                              environment: ["HOME": dir.path])
        #expect(r.status == 0, "\(r.err)")
        #expect(mode(dir.file(".ssh")) == 0o700)
        #expect(FileManager.default.fileExists(atPath: dir.file(".ssh/id_ecdsa.pub")))
    }

    @Test func anExistingFileIsNeverOverwritten() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        for existing in ["id_x", "id_x.pub"] {
            let key = dir.file(existing == "id_x" ? "id_x" : "id_y")
            FileManager.default.createFile(atPath: dir.file(existing == "id_x" ? "id_x" : "id_y.pub"),
                                           contents: Data("keep me\n".utf8))
            let r = try Spawn.run(Binary.essh, ["key", "generate", "--file", key, "--no-passphrase"],
                                  environment: ["HOME": dir.path])
            #expect(r.status == 2 && r.err.contains("exists already: eSSH never overwrites a key"), "\(r.err)")
        }
        #expect(try String(contentsOfFile: dir.file("id_x"), encoding: .utf8) == "keep me\n")
        #expect(!FileManager.default.fileExists(atPath: dir.file("id_x.pub")))
        #expect(try String(contentsOfFile: dir.file("id_y.pub"), encoding: .utf8) == "keep me\n")
        #expect(!FileManager.default.fileExists(atPath: dir.file("id_y")))
    }

    @Test func aPassphraseFileOthersCanReadIsRefused() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        FileManager.default.createFile(atPath: dir.file("pass"), contents: Data("secret words\n".utf8),
                                       attributes: [.posixPermissions: 0o640])
        let r = try Spawn.run(Binary.essh, ["key", "generate", "--file", dir.file("k"), "--passphrase-file",
                                            dir.file("pass")], environment: ["HOME": dir.path])
        #expect(r.status == 2 && r.err.contains("--passphrase-file \(dir.file("pass")) can be read by other users"),
                "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("k")))
        let none = try Spawn.run(Binary.essh, ["key", "generate", "--file", dir.file("k")],
                                 environment: ["HOME": dir.path])
        #expect(none.status == 2 && none.err.contains("No terminal to ask the passphrase on"), "\(none.err)")
    }

    /// On a terminal (a pty driven by python3), the passphrase is asked twice; answers that differ make no key.
    @Test(arguments: [("same words", "same words", true), ("same words", "other words", false)])
    func theTerminalAsksTwiceAndDifferentAnswersMakeNoKey(first: String, second: String, made: Bool) throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let key = dir.file("k")
        let r = try Self.onTerminal(["key", "generate", "--file", key],
                                    answers: [("new key: ", first), ("again: ", second)], home: dir.path)
        #expect(r.out.contains("Enter passphrase for the new key:") && r.out.contains("Enter the same passphrase again"),
                "\(r.out)")
        #expect(!r.out.contains(first), "no echo")
        #expect(FileManager.default.fileExists(atPath: key) == made, "\(r.out)")
        if made {
            #expect(r.out.contains("exit 0"))
            #expect(try Binary.run("/usr/bin/ssh-keygen", ["-y", "-P", first, "-f", key]).status == 0)
        } else {
            #expect(r.out.contains("The passphrases do not match: no key was made.") && r.out.contains("exit 2"),
                    "\(r.out)")
        }
    }

    /// Runs a program on a new pty (argv[2:]), answering each question of argv[1] (JSON: [[prompt, answer], …])
    /// once its prompt appears; prints what the terminal showed and `exit N`.
    static let ptyDriver = #"""
        import json, os, pty, sys, time
        answers, argv = json.loads(sys.argv[1]), sys.argv[2:]
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(argv[0], argv)
        seen = b""
        def more(until=None):
            global seen
            end = time.time() + 30
            while (until is None or until not in seen) and time.time() < end:
                try:
                    chunk = os.read(fd, 1024)
                except OSError:
                    return
                if not chunk:
                    return
                seen += chunk
        for prompt, answer in answers:
            more(prompt.encode())
            time.sleep(0.2)
            os.write(fd, answer.encode() + b"\n")
        more()
        _, status = os.waitpid(pid, 0)
        sys.stdout.write(seen.decode(errors="replace") + "\nexit %d\n" % os.waitstatus_to_exitcode(status))
        """#

    /// `ptyDriver` running essh with `arguments`, answering `answers` in order.
    static func onTerminal(_ arguments: [String], answers: [(String, String)], home: String) throws -> RunResult {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: answers.map { [$0.0, $0.1] }),
                          as: UTF8.self)
        return try Binary.run("/usr/bin/python3", ["-c", ptyDriver, json, Binary.essh] + arguments,
                              environment: ["HOME": home], timeout: 60)
    }

    @Test func onATerminalTheSwitchIsAskedAndYesSwitches() throws {
        let f = try Fixture()
        #expect(try f.essh(["servers", "add", "box", "--host", f.sshd.host, "--port", String(f.sshd.port),
                            "--user", f.s.user, "--auth", "password"]).status == 0)
        let r = try Self.onTerminal(["key", "install", "--db", f.dir.file("essh.db"), "-i", f.dir.file("key.pub"),
                                     "--password-file", f.dir.file("password"), "--known-hosts",
                                     f.dir.file("known_hosts"), "--host-key-policy", "accept-new", "box"],
                                    answers: [("[y/N] ", "y")], home: f.dir.file("home"))
        #expect(r.out.contains("Switch box from password to the key \(f.dir.file("key"))? [y/N]"), "\(r.out)")
        #expect(r.out.contains("box now logs in with the key") && r.out.contains("exit 0"), "\(r.out)")
        #expect(try f.essh(["servers", "show", "box"]).out.contains("auth            key\n"))
    }

}

/// `ssh-keygen -lf`'s fingerprint of a public key file.
enum PublicKeyText {
    static func fingerprint(_ path: String) throws -> String {
        String(try Binary.run("/usr/bin/ssh-keygen", ["-lf", path]).out.split(separator: " ")[1])
    }
}
