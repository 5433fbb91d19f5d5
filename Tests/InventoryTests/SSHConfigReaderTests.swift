import Foundation
import Inventory
import Synchronization
import Testing
import TestSupport

/// A file system in a dictionary, globbing with fnmatch(3) like glob(3) would.
private struct FakeSource: SSHConfigSource {
    var files: [String: String]

    func paths(matching pattern: String) -> [String] {
        files.keys.filter { fnmatch(pattern, $0, FNM_PATHNAME) == 0 }.sorted()
    }

    func read(_ path: String) throws -> String {
        guard let text = files[path] else { throw CocoaError(.fileReadNoSuchFile) }
        return text
    }
}

/// A source that counts its reads.
private final class CountingSource: SSHConfigSource, Sendable {
    let files: [String: String]
    private let count = Mutex(0)
    init(files: [String: String]) { self.files = files }
    var reads: Int { count.withLock { $0 } }

    func paths(matching pattern: String) -> [String] {
        files.keys.filter { fnmatch(pattern, $0, FNM_PATHNAME) == 0 }.sorted()
    }

    func read(_ path: String) throws -> String {
        count.withLock { $0 += 1 }
        guard let text = files[path] else { throw CocoaError(.fileReadNoSuchFile) }
        return text
    }
}

@Suite struct SSHConfigReaderTests {
    private func read(_ files: [String: String], top: String = "/home/u/.ssh/config") throws -> SSHConfigReader.Result {
        try SSHConfigReader(home: "/home/u", localUser: "u", source: FakeSource(files: files)).read(path: top)
    }

    @Test func hostLinesWithSeveralAliasesGiveOneServerEachAndWildcardsAreSkipped() throws {
        let result = try read(["/home/u/.ssh/config": """
            # my servers
            Host web web.prod   *.example.com  !nope
                # indented comment
                HostName 10.0.0.1
                User deploy
                Port 2222

            Host db-?
                User nobody
            Host *
                User fallback
                IdentityFile ~/.ssh/id_ed25519
            """])
        #expect(result.hosts.map(\.alias) == ["web", "web.prod"])
        let web = result.hosts[0]
        #expect(web.hostName == "10.0.0.1" && web.user == "deploy" && web.port == 2222)
        #expect(web.identityFile == "/home/u/.ssh/id_ed25519")
        #expect(result.hosts[1].user == "deploy")
    }

    @Test func theFirstValueWinsAndDefaultsFromHostStarApplyToLaterHosts() throws {
        let result = try read(["/home/u/.ssh/config": """
            Host *
                User everyone
                Port 2200
            Host a
                User alice
                HostName a.lan
            Host b
                HostName %h.internal
            """])
        let byAlias = Dictionary(uniqueKeysWithValues: result.hosts.map { ($0.alias, $0) })
        #expect(byAlias["a"]?.user == "everyone")
        #expect(byAlias["a"]?.port == 2200)
        #expect(byAlias["b"]?.hostName == "b.internal")
    }

    @Test func negatedPatternsExcludeAHostFromABlock() throws {
        let result = try read(["/home/u/.ssh/config": """
            Host a b
                HostName shared
            Host * !b
                User notb
            """])
        let byAlias = Dictionary(uniqueKeysWithValues: result.hosts.map { ($0.alias, $0) })
        #expect(byAlias["a"]?.user == "notb")
        #expect(byAlias["b"]?.user == nil)
    }

    @Test func includeFollowsGlobsAndPathsRelativeToDotSSHInOrder() throws {
        let result = try read([
            "/home/u/.ssh/config": "Include config.d/*.conf ~/extra/one\nHost top\n    HostName top.lan\n",
            "/home/u/.ssh/config.d/20-b.conf": "Host b\n    HostName b.lan\n",
            "/home/u/.ssh/config.d/10-a.conf": "Include nested\nHost a\n    HostName a.lan\n",
            "/home/u/.ssh/config.d/other.txt": "Host notincluded\n",
            "/home/u/.ssh/nested": "Host deep\n    Port 2022\n",
            "/home/u/extra/one": "Host one\n    User x\n",
        ])
        #expect(result.hosts.map(\.alias) == ["deep", "a", "b", "one", "top"])
        #expect(result.hosts.first { $0.alias == "deep" }?.port == 2022)
        #expect(result.hosts.first { $0.alias == "one" }?.user == "x")
    }

    @Test func anIncludeInsideAHostBlockAppliesOnlyToThatHost() throws {
        let result = try read([
            "/home/u/.ssh/config": "Host a\n    Include common\nHost b\n    HostName b.lan\n",
            "/home/u/.ssh/common": "User shared\n",
        ])
        let byAlias = Dictionary(uniqueKeysWithValues: result.hosts.map { ($0.alias, $0) })
        #expect(byAlias["a"]?.user == "shared")
        #expect(byAlias["b"]?.user == nil)
    }

    @Test func matchBlocksAreSkippedUntilTheNextHost() throws {
        let result = try read(["/home/u/.ssh/config": """
            Match host a exec "true"
                User frommatch
            Host a
                HostName a.lan
            """])
        #expect(result.hosts == [SSHConfigHost(alias: "a", hostName: "a.lan")])
    }

    @Test func equalsSignsQuotesAndKeywordCaseAreAccepted() throws {
        let result = try read(["/home/u/.ssh/config": """
            HOST=q
              hostname = q.lan
              USER=quinn
              identityfile "/keys/my key"
            """])
        #expect(result.hosts == [SSHConfigHost(alias: "q", hostName: "q.lan", user: "quinn",
                                               identityFile: "/keys/my key")])
    }

    @Test func identityFileTokensAreExpanded() throws {
        let result = try read(["/home/u/.ssh/config": """
            Host t
                HostName t.example
                User remote
                Port 2200
                IdentityFile %d/.ssh/%u-%r@%h-%n-%p-100%%-%C
            """])
        #expect(result.hosts.first?.identityFile == "/home/u/.ssh/u-remote@t.example-t-2200-100%-%C")
    }

    /// A bad Port is a host skipped (and counted as such by the import), not a line warning.
    @Test func anInvalidPortSkipsTheHostWithTheReason() throws {
        let result = try read(["/home/u/.ssh/config": "Host bad\n    Port 99999\nHost good\n"])
        #expect(result.hosts.map(\.alias) == ["good"])
        #expect(result.warnings.isEmpty)
        #expect(result.skipped
                == [.init(alias: "bad", reason: "its Port '99999' (/home/u/.ssh/config:2) is not 1-65535")])
    }

    /// ProxyJump in all its forms, and `ProxyCommand ssh -W %h:%p HOST`, become the host's jump chain; another
    /// ProxyCommand is kept as unsupported (the import puts it in the note), never dropped unsaid.
    @Test func proxyJumpAndProxyCommandSSHDashWBecomeTheJumpChain() throws {
        let result = try read(["/home/u/.ssh/config": """
            Host inner
                HostName 10.0.0.5
                ProxyJump admin@bastion:2222
            Host piped
                ProxyCommand ssh -W %h:%p gw
            Host direct
                ProxyJump none
            Host *.behind
                ProxyJump bastion,ssh://ops@b2:2200
            Host db.behind
            Host bracket
                ProxyCommand /usr/bin/ssh -q -x -l admin -p 2022 -W [%h]:%p gw2
            Host socks
                ProxyCommand nc -X 5 -x proxy:1080 %h %p
            """])
        #expect(result.hosts.map(\.alias) == ["inner", "piped", "direct", "db.behind", "bracket", "socks"])
        #expect(result.skipped.isEmpty)
        #expect(result.hosts.map(\.jump) == ["admin@bastion:2222", "gw", nil, "bastion,ssh://ops@b2:2200",
                                             "admin@gw2:2022", nil])
        #expect(result.hosts[5].unsupportedProxy == "ProxyCommand nc -X 5 -x proxy:1080 %h %p (/home/u/.ssh/config:14)")
        #expect(result.hosts[5].draft.note.hasPrefix("ProxyCommand nc -X 5"))
        #expect(result.hosts[0].draft.jump == "admin@bastion:2222" && result.hosts[2].draft.jump.isEmpty)
    }

    /// The forms of `ssh -W` read as a jump, and the commands that are something else.
    @Test func proxyCommandSSHDashWForms() {
        func jump(_ text: String) -> String? {
            SSHConfigProxy.jump(fromProxyCommand: text.split(separator: " ").map(String.init))
        }
        #expect(jump("ssh -W %h:%p gw") == "gw")
        #expect(jump("exec ssh -qW %h:%p u@gw") == "u@gw")
        #expect(jump("ssh -J b1 -W %h:%p b2") == "b1,b2")
        #expect(jump("ssh -p 2200 -W [%h]:%p 2001:db8::1") == "[2001:db8::1]:2200")
        #expect(jump("ssh -W %h:%p gw uptime") == nil, "a remote command")
        #expect(jump("ssh -i key -W %h:%p gw") == nil, "a key eSSH would not use")
        #expect(jump("ssh -W %h:22 gw") == nil && jump("ssh gw -W %h:%p") == nil && jump("nc gw 22") == nil)
        #expect(jump("ssh -W %h:%p -p 0 gw") == nil)
    }

    /// Options that eSSH does not use are named with each host they apply to, once each, as first written.
    @Test func optionsESSHDoesNotUseAreListedPerHostOnce() throws {
        let result = try read(["/home/u/.ssh/config": """
            Host a
                LocalForward 8080 localhost:80
                forwardagent yes
                LocalForward 8443 localhost:443
                IdentityFile ~/.ssh/one
                IdentityFile ~/.ssh/two
            Host b
                HostName b.lan
            Host *
                ServerAliveInterval 60
                User me
            """])
        #expect(result.hosts.map(\.unusedOptions) == [
            ["forwardagent", "ServerAliveInterval", "IdentityFile (all but the first)"],
            ["ServerAliveInterval"],
        ])
        #expect(result.hosts[0].identityFile == "/home/u/.ssh/one")
    }

    /// LocalForward, RemoteForward and DynamicForward collect, as in OpenSSH (every line that applies, not the first
    /// only), with their lines; the first ClearAllForwardings obtained decides, and yes clears them all, the lines
    /// after it too (ssh clears once the files are read).
    @Test func forwardLinesCollectPerHostAndClearAllForwardingsClearsThem() throws {
        let result = try read(["/home/u/.ssh/config": """
            Host db
                LocalForward 5432 localhost:5432
                RemoteForward 9000 localhost:3000
            Host db web
                DynamicForward localhost:1080
                LocalForward [::1]:8080 [fd00::5]:80
            Host quiet
                LocalForward 1 a:1
                ClearAllForwardings yes
            Host loud
                ClearAllForwardings no
            Host loud quiet
                ClearAllForwardings yes
                RemoteForward 2000
            """])
        let hosts = Dictionary(uniqueKeysWithValues: result.hosts.map { ($0.alias, $0) })
        #expect(hosts["db"]?.forwards.map(\.text) == [
            "LocalForward 5432 localhost:5432", "RemoteForward 9000 localhost:3000", "DynamicForward localhost:1080",
            "LocalForward [::1]:8080 [fd00::5]:80",
        ])
        #expect(hosts["db"]?.forwards.first?.location == SSHConfigLocation(file: "/home/u/.ssh/config", line: 2))
        #expect(hosts["db"]?.forwards.first?.kind == .local && hosts["db"]?.forwards.first?.arguments == [
            "5432", "localhost:5432",
        ])
        #expect(hosts["web"]?.forwards.map(\.text) == ["DynamicForward localhost:1080",
                                                       "LocalForward [::1]:8080 [fd00::5]:80"])
        #expect(hosts["quiet"]?.forwards == [])
        #expect(hosts["quiet"]?.forwardsClearedBy == SSHConfigLocation(file: "/home/u/.ssh/config", line: 9))
        #expect(hosts["loud"]?.forwards.map(\.text) == ["RemoteForward 2000"])
        #expect(hosts["loud"]?.forwardsClearedBy == nil)
        #expect(result.hosts.allSatisfy { $0.unusedOptions.isEmpty })
    }

    @Test func anUnreadableTopFileIsAClearError() {
        #expect {
            _ = try read([:], top: "/nowhere/config")
        } throws: { error in
            (error as? InventoryError)?.kind == .sshConfig
                && (error as? InventoryError)?.message.contains("/nowhere/config") == true
        }
    }

    @Test func anIncludeLoopStopsAtOpenSSHsDepthLimitWithItsMessage() throws {
        let error = #expect(throws: InventoryError.self) {
            try read(["/home/u/.ssh/config": "Host a\nInclude config\n"])
        }
        #expect(error?.kind == .sshConfig)
        #expect(error?.message.contains("Too many recursive configuration includes") == true)
        #expect(error?.message.contains("/home/u/.ssh/config:2") == true, "\(String(describing: error))")
    }

    /// A file including itself three times would be read 3^16 times if the limit were per path: the count is
    /// kept across the whole read, so this stops at once.
    @Test func filesIncludingEachOtherSeveralTimesStopQuickly() throws {
        let counter = CountingSource(files: [
            "/home/u/.ssh/config": "Include config config config\n",
        ])
        let clock = ContinuousClock()
        let started = clock.now
        #expect(throws: InventoryError.self) {
            try SSHConfigReader(home: "/home/u", localUser: "u", source: counter).read(path: "/home/u/.ssh/config")
        }
        #expect(counter.reads <= 1_100, "\(counter.reads) reads")
        #expect(clock.now - started < .seconds(5))
        let globbed = CountingSource(files: [
            "/home/u/.ssh/g1.conf": "Include g*.conf\n", "/home/u/.ssh/g2.conf": "Include g*.conf\n",
            "/home/u/.ssh/g3.conf": "Include g*.conf\nHost x\n", "/home/u/.ssh/config": "Include g*.conf\n",
        ])
        #expect(throws: InventoryError.self) {
            try SSHConfigReader(home: "/home/u", localUser: "u", source: globbed).read(path: "/home/u/.ssh/config")
        }
        #expect(globbed.reads <= 1_100)
    }

    @Test func linesWithControlCharactersAreRefusedWithFileAndLine() throws {
        let result = try read(["/home/u/.ssh/config": """
            Host good
                HostName good.lan
            Host bad\u{0}name
                HostName evil.lan
            Host titled
                HostName \u{1B}]0;owned\u{07}
                User ops
            """])
        #expect(result.hosts.map(\.alias) == ["good", "titled"])
        #expect(result.hosts.first { $0.alias == "titled" }?.hostName == nil, "the escape-laden HostName is dropped")
        #expect(result.hosts.first { $0.alias == "titled" }?.user == "ops")
        #expect(result.warnings.contains { $0.hasPrefix("/home/u/.ssh/config:3: holds a control character") })
        #expect(result.warnings.contains { $0.hasPrefix("/home/u/.ssh/config:6: holds a control character") })
        #expect(!result.hosts.contains { ($0.hostName ?? "").contains("evil") }, "the refused block's lines apply to nobody")
    }

    /// Found by `make fuzz` (sshconfig): `Host ""` and an unclosed quote gave a server with an empty name.
    @Test func aHostWithAnEmptyNameIsSkippedWithAWarning() throws {
        let result = try read(["/home/u/.ssh/config": """
            Host "" web1
                User ghost
            Host "
                User ghost
            Host web2
                User ops
            """])
        #expect(result.hosts.map(\.alias) == ["web2"])
        #expect(result.hosts.first?.user == "ops")
        #expect(result.warnings == [
            "/home/u/.ssh/config:1: Host has an empty name; this Host block was skipped",
            "/home/u/.ssh/config:3: Host has an empty name; this Host block was skipped",
        ])
    }

    @Test func aFIFOOrADeviceIsRefusedWithoutBlocking() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let fifo = dir.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, "/dev/zero", dir.path] {
            let error = #expect(throws: InventoryError.self) {
                try SSHConfigReader(home: dir.path, localUser: "u").read(path: path)
            }
            #expect(error?.message.contains("not a regular file") == true, "\(path): \(String(describing: error))")
        }
        // Included ones too: a warning, and the rest is read.
        try "Include \(fifo)\nHost after\n".write(toFile: dir.file("config"), atomically: true, encoding: .utf8)
        let result = try SSHConfigReader(home: dir.path, localUser: "u").read(path: dir.file("config"))
        #expect(result.hosts.map(\.alias) == ["after"])
        #expect(result.warnings.contains { $0.contains("FIFO") })
    }

    @Test func theRealFileSystemSourceGlobsSortedAndReadsWithoutWriting() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.file(".ssh/conf.d"), withIntermediateDirectories: true)
        try "Include conf.d/*\nHost main\n".write(toFile: dir.file(".ssh/config"), atomically: true, encoding: .utf8)
        try "Host z1\n".write(toFile: dir.file(".ssh/conf.d/b"), atomically: true, encoding: .utf8)
        try "Host a1\n".write(toFile: dir.file(".ssh/conf.d/a"), atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: dir.file(".ssh/config")))
        let result = try SSHConfigReader(home: dir.path, localUser: "u").read(path: dir.file(".ssh/config"))
        #expect(result.hosts.map(\.alias) == ["a1", "z1", "main"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.file(".ssh/config"))) == before)
    }

    @Test func aHostBecomesADraftWithKeyOrAgentAuthentication() {
        let keyed = SSHConfigHost(alias: "a", hostName: "a.lan", user: "u", port: 2200, identityFile: "/k").draft
        #expect(keyed == ServerDraft(name: "a", host: "a.lan", port: 2200, user: "u", auth: .key, keyPath: "/k"))
        #expect(SSHConfigHost(alias: "b").draft == ServerDraft(name: "b", host: "b", auth: .agent))
    }
}
