import Foundation
import Testing
import TestSupport

/// Shell completions (`essh --generate-completion-script bash|zsh|fish`) complete saved server names, tags and
/// setting keys from the database, in the real shells: bash's completion function run as bash runs it on Tab, zsh
/// and fish typed into in a real terminal (tmux).
@Suite struct CompletionTests {
    /// A database with web1 (tags prod, web) and db1 (tag dbs).
    private func saved(_ dir: TempDir, _ db: String? = nil) throws {
        for args in [["web1", "--host", "h1", "--tag", "prod", "--tag", "web"], ["db1", "--host", "h2", "--tag", "dbs"]] {
            let r = try Binary.runEssh(["servers", "add"] + args, environment: ["ESSH_DB": db ?? dir.file("essh.db")])
            #expect(r.status == 0, "\(r.err)")
        }
    }

    private func script(_ shell: String, into path: String) throws {
        let r = try Binary.runEssh(["--generate-completion-script", shell])
        #expect(r.status == 0, "\(r.err)")
        try r.stdout.write(to: URL(fileURLWithPath: path))
    }

    static func program(_ name: String) throws -> String {
        for dir in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: dir + "/" + name) {
            return dir + "/" + name
        }
        throw TmuxSession.Failure(description: "\(name) is not installed; the completion tests run it. "
                                  + "Run `make test` (it installs TEST_DEPS) or apt-get install \(name).")
    }

    /// What bash offers on Tab after `words` (the last one is the word being completed, "" for a new one): the
    /// script sourced and its function called as `complete -F` calls it.
    static func bash(script: String, binary: String, _ words: [String], environment: [String: String]) throws
        -> [String]
    {
        let all = [binary] + words
        let quoted = all.map(TmuxSession.shellQuoted).joined(separator: " ")
        let line = all.joined(separator: " ")
        let text = """
            source \(TmuxSession.shellQuoted(script))
            COMP_WORDS=(\(quoted))
            COMP_CWORD=\(all.count - 1)
            COMP_LINE=\(TmuxSession.shellQuoted(line))
            COMP_POINT=${#COMP_LINE}
            _essh "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let r = try Binary.run(try program("bash"), ["-c", text], environment: environment)
        #expect(r.status == 0, "\(r.err)")
        return r.out.split(separator: "\n").map(String.init).filter { !$0.isEmpty }.sorted()
    }

    @Test func bashCompletesSavedNamesTagsAndSettingKeys() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try saved(dir)
        let script = dir.file("essh.bash")
        try self.script("bash", into: script)
        let env = ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path]
        func complete(_ words: String...) throws -> [String] {
            try Self.bash(script: script, binary: Binary.essh, words, environment: env)
        }
        #expect(try complete("servers", "show", "") == ["db1", "web1"])
        #expect(try complete("servers", "show", "w") == ["web1"])
        #expect(try complete("servers", "rm", "web1", "") == ["db1", "web1"])
        #expect(try complete("exec", "--tag", "p") == ["prod"])
        #expect(try complete("net", "--tag", "") == ["dbs", "prod", "web"])
        #expect(try complete("check", "t") == ["tag:dbs", "tag:prod", "tag:web"])
        #expect(try complete("shell", "d") == ["db1"])
        #expect(try complete("config", "get", "fleet.") == ["fleet.parallel", "fleet.timeout"])
        #expect(try complete("con") == ["config"])

        // --db among the words picks the database; a missing one completes nothing and is not created.
        let other = dir.file("other.db")
        try saved(dir, other)
        let r = try Binary.runEssh(["servers", "rm", "web1"], environment: ["ESSH_DB": other])
        #expect(r.status == 0, "\(r.err)")
        #expect(try complete("servers", "show", "--db", other, "") == ["db1"])
        #expect(try complete("servers", "show", "--db", dir.file("missing.db"), "").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: dir.file("missing.db")))
    }

    /// zsh with compinit, the script as `_essh` on fpath: Tab completes a tag and a server name in place.
    @Test func zshCompletesATagAndAServerName() throws {
        let zsh = try Self.program("zsh")
        let dir = try TempDir()
        defer { dir.cleanup() }
        try saved(dir)
        try FileManager.default.createDirectory(atPath: dir.file("functions"), withIntermediateDirectories: true)
        try script("zsh", into: dir.file("functions/_essh"))
        let bin = try binDir(dir)
        let session = try TmuxSession.launch(zsh, arguments: "-f", environment: [
            "PATH": bin + ":/usr/bin:/bin", "ESSH_DB": dir.file("essh.db"), "HOME": dir.path, "PS1": "zsh> ",
        ])
        defer { session.kill() }
        try session.waitFor(text: "zsh>")
        try session.type("fpath=(\(dir.file("functions")) $fpath); autoload -U compinit; compinit -u -D")
        try session.press("Enter")
        try session.type("essh exec --tag pr")
        try session.press("Tab")
        try session.waitFor(text: "essh exec --tag prod")
        try session.press("C-u")
        try session.type("essh servers show we")
        try session.press("Tab")
        try session.waitFor(text: "essh servers show web1")
    }

    /// fish with the script sourced: Tab completes a server name and a tag in place.
    @Test func fishCompletesAServerNameAndATag() throws {
        let fish = try Self.program("fish")
        let dir = try TempDir()
        defer { dir.cleanup() }
        try saved(dir)
        try script("fish", into: dir.file("essh.fish"))
        let bin = try binDir(dir)
        let session = try TmuxSession.launch(fish, arguments: "--no-config", environment: [
            "PATH": bin + ":/usr/bin:/bin", "ESSH_DB": dir.file("essh.db"), "HOME": dir.path,
        ])
        defer { session.kill() }
        try session.waitFor("a fish prompt") { $0.contains { $0.contains(">") || $0.contains("#") } }
        try session.type("source \(dir.file("essh.fish"))")
        try session.press("Enter")
        try session.type("essh servers show we")
        try session.press("Tab")
        try session.waitFor(text: "essh servers show web1")
        try session.press("C-u")
        try session.type("essh net --tag db")
        try session.press("Tab")
        try session.waitFor(text: "essh net --tag dbs")
    }

    /// A folder holding `essh` (a link to the built binary), for PATH: the scripts call the command by name.
    private func binDir(_ dir: TempDir) throws -> String {
        let bin = dir.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin + "/essh", withDestinationPath: Binary.essh)
        return bin
    }
}
