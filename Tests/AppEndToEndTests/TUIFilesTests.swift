import Foundation
import Testing
import TestSupport

/// The Files screen in a real terminal against the harness's sshd (its SFTP subsystem): opened with f, both panes
/// browsed and filtered, two local files marked and copied up, one copied down, renamed and deleted (after the
/// question) on the server; a 2 GiB copy shows its progress, answers keys, pauses keeping its partial, resumes, and
/// Esc cancels it leaving neither the file nor its partial on the server; a session's F11 opens the server's pane
/// in the folder of its last cd; `m` copies to a good and a refusing marked server with a row each; a password login
/// is asked over the screen; a server behind a bastion is reached through it; F5 onto a name that is there asks
/// first; names a hostile server lists that are no file names are not shown.
@Suite("essh TUI: files", .serialized)
struct TUIFilesTests {
    /// Runs `command` on the test server as the test user (the test's own check of what arrived).
    private static func remote(_ s: TestServers, _ command: String) throws -> String {
        let r = try Spawn.run("/usr/bin/ssh", [
            "-o", "BatchMode=yes", "-o", "UserKnownHostsFile=\(s.knownHosts)", "-o", "GlobalKnownHostsFile=/dev/null",
            "-i", s.key("id_ed25519"), "-p", "\(s.port)", "\(s.user)@\(s.host)", command,
        ])
        return r.out
    }

    /// Adds the hostile server's host key to the known_hosts `essh` reads.
    private static func trust(_ hostile: HostileSFTPServer, in essh: EsshInTmux) throws {
        let known = try #require(FileHandle(forWritingAtPath: essh.knownHosts))
        try known.seekToEnd()
        try known.write(contentsOf: Data((hostile.knownHostsLine + "\n").utf8))
        try known.close()
    }

    /// On the Files screen of box: the server's pane into `sandbox` (a folder of the login folder), then the local
    /// pane filtered to `local`, which is selected.
    private static func serverFolderAndLocalFile(_ tmux: TmuxSession, sandbox: String, folder: String,
                                                 local: String) throws {
        try tmux.press("Tab")
        try tmux.press("/")
        try tmux.type(sandbox)
        try tmux.press("Enter")
        try tmux.press("Enter")
        try tmux.waitFor(text: "box: \(folder)")
        try tmux.press("Tab")
        try tmux.press("/")
        try tmux.type(local)
        try tmux.press("Enter")
    }

    @Test func browseMarkCopyBothWaysRenameDeleteAndCancelABigCopy() throws {
        let s = try TestServers.require()
        let sandbox = "essh-files-\(UUID().uuidString.prefix(8))"
        let folder = "\(s.home)/\(sandbox)"
        _ = try Self.remote(s, "mkdir -p \(folder) && printf 'from the server\\n' > \(folder)/remote.txt")
        defer { _ = try? Self.remote(s, "rm -rf \(folder)") }
        let dir = try TempDir()
        defer { dir.cleanup() }
        try "one\n".write(toFile: dir.file("local.txt"), atomically: true, encoding: .utf8)
        try "two\n".write(toFile: dir.file("second.txt"), atomically: true, encoding: .utf8)
        // 2 GiB (sparse here; the server's copy is real bytes): long enough to be seen going and cancelled.
        #expect(FileManager.default.createFile(atPath: dir.file("big.bin"), contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: dir.file("big.bin")))
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()

        let essh = try EsshInTmux(servers: [.box()], in: dir, width: 120, height: 30)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "box")
        try tmux.press("f")
        try tmux.waitFor(text: "eSSH — Files: box (")
        try tmux.waitFor(text: "box: \(s.home)")
        try tmux.waitFor(text: "local.txt")

        // The server's pane: into the sandbox.
        try tmux.press("Tab")
        try tmux.press("/")
        try tmux.type(sandbox)
        try tmux.press("Enter")
        try tmux.waitFor(text: "[/\(sandbox)]")
        try tmux.press("Enter")
        try tmux.waitFor(text: "box: \(folder)")
        try tmux.waitFor(text: "remote.txt")

        // Two local files marked (filtered to the .txt ones), copied up with F5.
        try tmux.press("Tab")
        try tmux.press("/")
        try tmux.type(".txt")
        try tmux.press("Enter")
        try tmux.press("Home")
        try tmux.press("Space")
        try tmux.press("Space")
        try tmux.waitFor(text: "(2 marked)")
        try tmux.press("F5")
        try tmux.waitFor(text: "Copied 2 files")
        #expect(try Self.remote(s, "cat \(folder)/local.txt \(folder)/second.txt") == "one\ntwo\n")
        // The server's pane was listed again: both are in it.
        try tmux.waitFor("both listed on the server too") { screen in
            screen.joined().components(separatedBy: "second.txt").count >= 3
        }

        // Down: remote.txt into the local folder.
        try tmux.press("Tab")
        try tmux.press("/")
        try tmux.type("remote")
        try tmux.press("Enter")
        try tmux.press("F5")
        try tmux.waitFor(text: "Copied 1 file")
        #expect(try String(contentsOfFile: dir.file("remote.txt"), encoding: .utf8) == "from the server\n")

        // Rename local.txt on the server (F6), then delete it after the question (F8).
        try tmux.press("Escape")
        try tmux.press("/")
        try tmux.type("local")
        try tmux.press("Enter")
        try tmux.press("F6")
        try tmux.waitFor(text: "New name for local.txt")
        for _ in 0..<9 { try tmux.press("BSpace") }
        try tmux.type("renamed.txt")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Renamed local.txt to renamed.txt.")
        #expect(try Self.remote(s, "ls \(folder)").split(separator: "\n").sorted()
                == ["remote.txt", "renamed.txt", "second.txt"])
        try tmux.press("Escape")
        try tmux.press("/")
        try tmux.type("renamed")
        try tmux.press("Enter")
        try tmux.press("F8")
        try tmux.waitFor(text: "Delete renamed.txt from box:\(folder)?")
        try tmux.press("Enter")
        try tmux.waitFor("the question closed") { !$0.contains { $0.contains("[ Delete ]") } }
        #expect(try Self.remote(s, "ls \(folder)").contains("renamed.txt"), "Enter on the default button keeps it")
        try tmux.press("F8")
        try tmux.waitFor(text: "[ Delete ]")
        try tmux.press("d")
        try tmux.waitFor(text: "Deleted 1 entry.")
        #expect(try Self.remote(s, "ls \(folder)").split(separator: "\n").sorted() == ["remote.txt", "second.txt"])

        // A 1 GiB copy: its progress shows; Esc cancels it, and nothing of it stays on the server.
        try tmux.press("Escape")
        try tmux.press("Tab")
        try tmux.press("Escape")
        try tmux.press("/")
        try tmux.type("big")
        try tmux.press("Enter")
        try tmux.press("F5")
        // Percent, bytes, rate and time left, once a rate is known.
        try tmux.waitFor("progress") { screen in
            screen.contains { $0.contains("big.bin →") && $0.contains("% ") && $0.contains("of 2.1 GB")
                && $0.contains("/s · ") && $0.contains(" left") }
        }
        // Keys are answered while it goes: a sort's notice is drawn within 2 s, the copy still running.
        try tmux.press("s")
        try tmux.waitFor("a key answered during the copy", timeout: 2) { screen in
            screen.contains { $0.contains("Sorted by size") } && screen.first?.contains("copying") == true
        }
        // p pauses: the partial stays on the server; p again resumes the copy from it.
        try tmux.press("p")
        try tmux.waitFor(text: "Paused; p resumes it from where it stopped.", timeout: 30)
        let partial = try Self.remote(s, "ls -A \(folder)").split(separator: "\n").filter {
            $0.hasPrefix(".big.bin.essh-") && $0.hasSuffix(".part")
        }
        #expect(partial.count == 1, "the partial is kept")
        try tmux.press("p")
        try tmux.waitFor("resumed") { screen in
            screen.first?.contains("copying") == true
                && screen.contains { $0.contains("big.bin →") && $0.contains("% ") }
        }
        try tmux.press("Escape")
        try tmux.waitFor(text: "Cancelled; no partial file was left.", timeout: 30)
        #expect(try Self.remote(s, "ls -A \(folder)").split(separator: "\n").sorted() == ["remote.txt", "second.txt"])

        try tmux.press("q")
        try tmux.waitFor(text: "Connect")
    }

    /// F5 onto a name the server's folder has: asked first (it used to be overwritten without a word); skip keeps
    /// it, rename copies beside it as NAME.1, Esc copies nothing, overwrite replaces it.
    @Test func f5AsksBeforeWritingOverAFileThatIsThere() throws {
        let s = try TestServers.require()
        let sandbox = "essh-files-\(UUID().uuidString.prefix(8))"
        let folder = "\(s.home)/\(sandbox)"
        _ = try Self.remote(s, "mkdir -p \(folder) && printf 'old\\n' > \(folder)/app.conf")
        defer { _ = try? Self.remote(s, "rm -rf \(folder)") }
        let dir = try TempDir()
        defer { dir.cleanup() }
        try "new\n".write(toFile: dir.file("app.conf"), atomically: true, encoding: .utf8)
        let essh = try EsshInTmux(servers: [.box()], in: dir, width: 120, height: 30)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "box")
        try tmux.press("f")
        try tmux.waitFor(text: "box: \(s.home)")
        try Self.serverFolderAndLocalFile(tmux, sandbox: sandbox, folder: folder, local: "app.conf")

        try tmux.press("F5")
        try tmux.waitFor(text: "app.conf is in box:\(folder) already.")
        try tmux.waitFor(text: "copy it as app.conf.1?")
        try tmux.press("s")
        try tmux.waitFor(text: "Nothing was copied. Skipped 1 file that is in box:\(folder) already.")
        #expect(try Self.remote(s, "cat \(folder)/app.conf") == "old\n")

        try tmux.press("F5")
        try tmux.waitFor(text: "copy it as app.conf.1?")
        try tmux.press("r")
        try tmux.waitFor(text: "Copied 1 file")
        #expect(try Self.remote(s, "cat \(folder)/app.conf") == "old\n")
        #expect(try Self.remote(s, "cat \(folder)/app.conf.1") == "new\n")

        // The server's pane was listed again: the next free name is .2; Esc copies nothing.
        try tmux.press("F5")
        try tmux.waitFor(text: "copy it as app.conf.2?")
        try tmux.press("Escape")
        try tmux.waitFor(text: "Copy cancelled: nothing was copied.")

        try tmux.press("F5")
        try tmux.waitFor(text: "copy it as app.conf.2?")
        try tmux.press("o")
        try tmux.waitFor(text: "Copied 1 file")
        #expect(try Self.remote(s, "cat \(folder)/app.conf") == "new\n")
        #expect(try Self.remote(s, "ls \(folder)").split(separator: "\n").sorted() == ["app.conf", "app.conf.1"])
    }

    /// A server listing names that are no file names (`../escape`, `a/b`, `/tmp/x`, a NUL): the pane shows none of
    /// them, only the honest entries, and the status line says once what was left out.
    @Test func namesAServerListsThatAreNoFileNamesAreNotShown() throws {
        let hostile = try HostileSFTPServer(HostileSFTPServer.Scenario([
            .folder("tree", [
                .file("ok.txt", "hello\n"), .file("../escape", "x"), .file("a/b", "y"), .file("/tmp/x", "z"),
                .file(.bytes([0x6E, 0x00, 0x75, 0x6C]), "nul"),
            ]),
        ]))
        defer { hostile.stop() }
        let essh = try EsshInTmux(servers: [.init("liar", host: hostile.host, port: hostile.port)], width: 120,
                                  height: 30)
        defer { essh.stop() }
        try Self.trust(hostile, in: essh)
        let tmux = essh.tmux
        try tmux.waitFor(text: "liar")
        try tmux.press("f")
        try tmux.waitFor(text: "liar: /home/hostile")
        try tmux.press("Tab")
        try tmux.press("Enter")
        try tmux.waitFor(text: "liar: /home/hostile/tree")
        try tmux.waitFor(text: "ok.txt")
        let screen = try tmux.waitFor(
            text: "liar listed 4 names that are not file names (“../escape”, “a/b”, “/tmp/x”, …); they are not shown.")
        let pane = screen.filter { $0.contains("│") }.joined(separator: "\n")
        #expect(!pane.contains("escape") && !pane.contains("a/b") && !pane.contains("tmp/x")
                && !pane.contains("n␀ul"), "\(screen.joined(separator: "\n"))")
    }

    /// F5 of a lying server's folder (issue 27): its names that are not file names, a name listed twice (a link out
    /// of the tree, then a folder whose file would go through it) and a folder holding itself make nothing outside the
    /// local pane's folder and nothing through a link; the copy says what did not arrive.
    @Test func f5OfALyingServersFolderWritesOnlyInsideTheLocalFolder() throws {
        let victim = try TempDir()
        defer { victim.cleanup() }
        let hostile = try HostileSFTPServer(HostileSFTPServer.Scenario([
            .folder("tree", [
                .file("ok.txt", "hello\n"), .file("../../escape", "x"),
                .symlink("twice", to: HostileSFTPServer.Name(victim.path)),
                .folder("twice", [.file("planted", "through the link")]),
                .loop("loop"),
            ]),
        ]))
        defer { hostile.stop() }
        // The local pane opens in the test's folder (which holds essh's own database and known_hosts too).
        let jail = try TempDir()
        defer { jail.cleanup() }
        let essh = try EsshInTmux(servers: [.init("liar", host: hostile.host, port: hostile.port)], in: jail,
                                  width: 120, height: 30)
        defer { essh.stop() }
        func everything() -> Set<String> {
            Set((FileManager.default.enumerator(atPath: jail.path)?.allObjects as? [String] ?? [])
                .filter { !$0.contains("/loop") && !$0.hasPrefix("state") })
        }
        try Self.trust(hostile, in: essh)
        let tmux = essh.tmux
        try tmux.waitFor(text: "liar")
        try tmux.press("f")
        try tmux.waitFor(text: "liar: /home/hostile")
        try tmux.press("Tab")
        try tmux.waitFor(text: "tree")
        let before = everything()
        try tmux.press("F5")
        try tmux.waitFor(text: "failed", timeout: 30)
        #expect(everything().subtracting(before).sorted() == ["tree", "tree/ok.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/escape"))
    }

    @Test func f11InASessionStartsInTheFolderOfItsLastCdAndGoesBackToIt() throws {
        let s = try TestServers.require()
        let sandbox = "essh-files-\(UUID().uuidString.prefix(8))"
        let folder = "\(s.home)/\(sandbox)"
        _ = try Self.remote(s, "mkdir -p \(folder) && touch \(folder)/marker-\(sandbox)")
        defer { _ = try? Self.remote(s, "rm -rf \(folder)") }
        let essh = try EsshInTmux.inSession(width: 120, height: 30)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.type("cd \(folder)")
        try tmux.press("Enter")
        try tmux.waitFor(text: "[exit 0")
        try tmux.press("F11")
        try tmux.waitFor(text: "box: \(folder)")
        try tmux.waitFor(text: "marker-essh-files-")
        try tmux.press("q")
        try tmux.waitFor(text: "Type a command")
        try tmux.type("echo STILL-$((20+1))")
        try tmux.press("Enter")
        try tmux.waitFor(text: "STILL-21")
    }

    @Test func mCopiesToTheMarkedServersWithARowEach() throws {
        let s = try TestServers.require()
        let sandbox = "essh-files-\(UUID().uuidString.prefix(8))"
        let folder = "\(s.home)/\(sandbox)"
        _ = try Self.remote(s, "mkdir -p \(folder)")
        defer { _ = try? Self.remote(s, "rm -rf \(folder)") }
        let dir = try TempDir()
        defer { dir.cleanup() }
        try "to every server\n".write(toFile: dir.file("app.conf"), atomically: true, encoding: .utf8)
        // Two servers marked: the test sshd, and one whose port refuses.
        let essh = try EsshInTmux(servers: [.box(), .init("down", port: 1)], in: dir, width: 120, height: 30)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "down")
        try tmux.press("Home")
        try tmux.press("Space")
        try tmux.press("Home")
        try tmux.press("Down")
        try tmux.press("Space")
        try tmux.press("Home")
        try tmux.press("f")
        try tmux.waitFor(text: "box: \(s.home)")
        try Self.serverFolderAndLocalFile(tmux, sandbox: sandbox, folder: folder, local: "app.conf")
        try tmux.press("m")
        let done = try tmux.waitFor(text: "2 of 2 done", timeout: 30)
        let box = done.first { $0.hasPrefix("  box ") } ?? ""
        let down = done.first { $0.hasPrefix("  down ") } ?? ""
        #expect(box.contains("ok") && box.contains("ok  \(folder)/app.conf"), "\(done)")
        #expect(down.contains("refused"), "\(done)")
        #expect(try Self.remote(s, "cat \(folder)/app.conf") == "to every server\n")
        // The server pane shows what arrived in its folder.
        try tmux.waitFor("listed again") { $0.contains { $0.contains("││ app.conf") } }
        try tmux.press("q")
        try tmux.waitFor(text: "Connect")
    }

    @Test func aServerThatLogsInWithAPasswordAsksForItOverTheFilesScreen() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux(servers: [.box(login: .password)], width: 120, height: 30)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "box")
        try tmux.press("f")
        try tmux.waitFor(text: "Password for")
        try tmux.type(s.password)
        try tmux.press("Enter")
        try tmux.waitFor(text: "box: \(s.home)")
        #expect(try !tmux.screen().contains { $0.contains(s.password) })
    }

    /// After a session was ended (which gives up its connection's questions), the Files screen's own login still
    /// asks its password: it used to get no answer at once and fail with "none given".
    @Test func theFilesScreenAsksItsPasswordAfterASessionEnded() throws {
        let s = try TestServers.require()
        let essh = try EsshInTmux(servers: [.init("akey"), .init("pw", login: .password)], width: 120, height: 30)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "pw")
        try tmux.press("Home")
        try tmux.press("Enter")
        try tmux.waitFor(text: "Type a command")
        try essh.endSession()
        try tmux.press("Enter")
        try tmux.waitFor(text: "akey")
        try tmux.press("End")
        try tmux.press("f")
        try tmux.waitFor(text: "Password for")
        try tmux.type(s.password)
        try tmux.press("Enter")
        try tmux.waitFor(text: "pw: \(s.home)")
    }

    @Test func aServerBehindABastionIsReachedThroughItsJumpHost() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let sandbox = "essh-files-\(UUID().uuidString.prefix(8))"
        defer { _ = try? Self.remote(s, "rm -rf \(s.home)/\(sandbox)") }
        try FileManager.default.copyItem(atPath: s.jump.knownHosts, toPath: dir.file("known_hosts"))
        try "through b1\n".write(toFile: dir.file("hop.txt"), atomically: true, encoding: .utf8)
        let env = ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path]
        try s.saveBastionAndTarget(environment: env)
        let essh = try EsshInTmux(knownHosts: .empty, homeInFolder: true, in: dir, width: 120, height: 30)
        defer { essh.stop() }
        let tmux = essh.tmux
        try tmux.waitFor(text: "t1")
        try tmux.press("Down")
        try tmux.press("f")
        try tmux.waitFor(text: "eSSH — Files: t1 (\(s.user)@\(s.jump.t1.host))")
        try tmux.waitFor(text: "t1: \(s.home)")
        // A folder made on t1 (F7), a file copied into it (F5): t1 shares the harness's disk, so it is checked there.
        try tmux.press("Tab")
        try tmux.press("F7")
        try tmux.type(sandbox)
        try tmux.press("Enter")
        try tmux.waitFor(text: "Made the folder \(sandbox).")
        try tmux.press("Enter")
        try tmux.waitFor(text: "t1: \(s.home)/\(sandbox)")
        try tmux.press("Tab")
        try tmux.press("/")
        try tmux.type("hop")
        try tmux.press("Enter")
        try tmux.press("F5")
        try tmux.waitFor(text: "Copied 1 file")
        #expect(try Self.remote(s, "cat \(s.home)/\(sandbox)/hop.txt") == "through b1\n")
    }
}
