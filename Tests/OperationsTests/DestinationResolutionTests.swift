import Foundation
import Inventory
import Operations
import SSH
import Testing

/// Files in a dictionary.
private struct Files: SSHConfigSource {
    var files: [String: String]
    func paths(matching pattern: String) -> [String] {
        files.keys.filter { fnmatch(pattern, $0, FNM_PATHNAME) == 0 }.sorted()
    }
    func read(_ path: String) throws -> String {
        guard let text = files[path] else { throw CocoaError(.fileReadNoSuchFile) }
        return text
    }
}

/// The one rule for a typed name: a saved server, else a Host in ~/.ssh/config, else the host typed.
@Suite struct DestinationResolutionTests {
    let context = ConnectionProfile.Context(environment: ["HOME": "/home/ann"], localUser: "ann")
    let config = """
        Host lab1
            HostName 10.0.0.7
            Port 2200
            User alice
            IdentityFile ~/.ssh/missing
            IdentityFile ~/.ssh/lab
        Host behind
            HostName 10.9.9.9
            ProxyJump bastion
        Host old
            HostName 10.0.0.8
            Ciphers +aes128-cbc
        """

    func reader(_ text: String? = nil) -> SSHConfigReader {
        SSHConfigReader(home: "/home/ann", localUser: "ann",
                        source: Files(files: ["/home/ann/.ssh/config": text ?? config]))
    }

    func resolve(_ text: String, saved: [Server] = [], config: String? = nil) throws -> ConnectionProfile.Resolution {
        try ConnectionProfile.resolve(text, saved: { name in saved.first { $0.name == name } }, context: context,
                                      sshConfig: reader(config), fileExists: { $0 == "/home/ann/.ssh/lab" })
    }

    @Test func aHostOfSSHConfigGivesItsValuesAndSaysWhereFrom() throws {
        let r = try resolve("lab1")
        #expect(r.profile.host == "10.0.0.7" && r.profile.port == 2200 && r.profile.user == "alice")
        #expect(r.profile.auth == .key && r.profile.keyPath == "/home/ann/.ssh/lab",
                "the first IdentityFile that exists, as ssh skips missing ones")
        #expect(!r.profile.isSaved && r.profile.jump.isEmpty && r.profile.unsupportedProxy == nil)
        #expect(r.profile.origin == .sshConfig(alias: "lab1", SSHConfigLocation(file: "/home/ann/.ssh/config", line: 1)))
        #expect(r.origin == "from ~/.ssh/config line 1")
        #expect(r.notes.contains("~/.ssh/config gives HostName 10.0.0.7 (~/.ssh/config line 2)."))
        #expect(r.notes.contains { $0.hasPrefix("IdentityFile /home/ann/.ssh/missing (~/.ssh/config line 5) does not exist") })
        var withAgent = r.profile  // the key file exists only for `fileExists` here
        withAgent.auth = .agent
        let options = try withAgent.options(context: context)
        #expect(options.host == "10.0.0.7" && options.port == 2200 && options.user == "alice")
    }

    @Test func aTypedUserAndPortBeatSSHConfigs() throws {
        let r = try resolve("root@lab1:22")
        #expect(r.profile.host == "10.0.0.7" && r.profile.port == 22 && r.profile.user == "root")
        #expect(r.destination == Destination(user: "root", host: "lab1", port: 22))
    }

    @Test func aSavedServerWinsANameClashAndTheNoteSaysSo() throws {
        let saved = Server(name: "lab1", host: "192.0.2.1", port: 22, user: "ops", auth: .agent)
        let r = try resolve("lab1", saved: [saved])
        #expect(r.profile.host == "192.0.2.1" && r.profile.isSaved && r.profile.origin == .saved)
        #expect(r.origin == "saved server" && r.destination == nil)
        #expect(r.notes == ["~/.ssh/config line 1 names lab1 too; the saved server comes first."])
        let broken = try resolve("lab1", saved: [saved], config: "Include ~/.ssh/config\n")
        #expect(broken.profile.isSaved, "a broken ssh_config does not stop a saved server")
        #expect(broken.notes.first?.hasPrefix("~/.ssh/config was not read:") == true)
    }

    @Test func aProxyJumpOfSSHConfigIsFollowedAndTheHopLookedUpThereToo() throws {
        let r = try resolve("behind", config: config + "\nHost bastion\n    HostName 10.0.0.1\n    User gate\n")
        #expect(r.profile.jump == "bastion" && r.profile.unsupportedProxy == nil)
        var context = self.context
        context.sshConfig = reader(config + "\nHost bastion\n    HostName 10.0.0.1\n    User gate\n")
        let options = try r.profile.options(context: context)
        #expect(options.host == "10.9.9.9" && options.name == "behind")
        #expect(options.jumps.map(\.host) == ["10.0.0.1"] && options.jumps[0].user == "gate")
        #expect(options.jumps[0].name == "bastion" && options.hopNames == ["bastion"])
        #expect(options.jumps[0].knownHostsFile == options.knownHostsFile)
    }

    @Test func anotherProxyCommandIsRefusedWithASentenceAndNeverConnectedDirectly() throws {
        let r = try resolve("nc", config: "Host nc\n    HostName 10.9.9.8\n    ProxyCommand nc -X 5 -x proxy:1080 %h %p\n")
        #expect(r.profile.jump.isEmpty && r.profile.unsupportedProxy?.keyword == "ProxyCommand")
        do {
            _ = try r.profile.options(context: context)
            Issue.record("connected directly")
        } catch {
            #expect(error.kind == .jumpHost)
            #expect(error.message.hasPrefix("nc is reached through a ProxyCommand (nc -X 5 -x proxy:1080 %h %p, "
                                            + "~/.ssh/config line 3) that eSSH does not run"))
        }
        var overridden = ConnectionProfile.Overrides()
        overridden.jump = "none"
        #expect(try r.profile.options(overridden, context: context).jumps.isEmpty, "-J none says how to reach it")
    }

    @Test func proxyCommandSSHDashWIsTheJumpItStandsFor() throws {
        let r = try resolve("w", config: "Host w\n    HostName 10.9.9.7\n    ProxyCommand ssh -q -W [%h]:%p gate\n")
        #expect(r.profile.jump == "gate" && r.profile.unsupportedProxy == nil)
    }

    @Test func algorithmListsOfSSHConfigAreNotUsedAndTheNoteSaysSo() throws {
        let r = try resolve("old")
        #expect(r.profile.algorithms.isEmpty)
        #expect(r.notes.contains { $0.hasPrefix("The algorithm lists ~/.ssh/config gives old are not used") })
    }

    @Test func anUnknownNameIsTheTypedHostAndABadPortIsRefused() throws {
        let r = try resolve("10.1.1.1")
        #expect(r.profile == ConnectionProfile(host: "10.1.1.1") && r.origin.hasPrefix("not a saved server"))
        #expect(throws: InventoryError.self) { try resolve("x", config: "Host x\n  Port nine\n") }
        #expect(throws: SSHError.self) { try resolve("a b") }
        let none = try ConnectionProfile.resolve("lab1", saved: { _ in nil }, context: context,
                                                 sshConfig: SSHConfigReader(home: "/home/ann", localUser: "ann",
                                                                            source: Files(files: [:])))
        #expect(none.profile == ConnectionProfile(host: "lab1"), "no ~/.ssh/config is no error")
    }

    /// `essh forward HOST` alone reads the typed host's forward lines from the resolution (a Host with nothing but
    /// forwards included); a saved server's name reads none.
    @Test func theResolutionCarriesSSHConfigsForwardLinesForATypedHost() throws {
        let text = "Host tun\n    LocalForward 8080 db:80\nHost lab1\n    DynamicForward 1080\n"
        let tun = try resolve("me@tun", config: text)
        #expect(tun.sshConfig?.forwards.map(\.text) == ["LocalForward 8080 db:80"])
        #expect(tun.origin == "not a saved server or a Host in ~/.ssh/config",
                "forward lines are not connection values")
        let saved = Server(name: "lab1", host: "192.0.2.1", port: 22, user: "ops", auth: .agent)
        #expect(try resolve("lab1", saved: [saved], config: text).sshConfig == nil)
    }

    /// The import saves LocalForward, RemoteForward and DynamicForward as the server's tunnels by the rule
    /// `--forward` follows (spellings of one forward collapsed), keeps what eSSH cannot set up in the note and
    /// counts both in the summary.
    @Test func theImportSavesForwardLinesAsTunnelsAndKeepsTheRestInTheNote() throws {
        let text = """
            Host db
                LocalForward 5432 localhost:5432
                LocalForward localhost:6000 [fd00::5]:6000
                LocalForward 5432 localhost:5432
                RemoteForward *:9000 localhost:3000
                DynamicForward 1080
                LocalForward /tmp/pg.sock /run/postgresql/.s.PGSQL.5432
                RemoteForward 1081
            Host web
                ProxyCommand nc -X 5 -x proxy:1080 %h %p
                LocalForward 8080 localhost:80
            Host quiet
                LocalForward 8081 localhost:80
                ClearAllForwardings yes
            """
        let plan = try SSHConfigImport.plan(path: "/home/ann/.ssh/config", reader: reader(text))
        let drafts = Dictionary(uniqueKeysWithValues: plan.drafts.map { ($0.name, $0) })
        #expect(drafts["db"]?.forwards == ["L:5432:localhost:5432", "L:localhost:6000:[fd00::5]:6000",
                                           "R:*:9000:localhost:3000", "D:1080"])
        #expect(drafts["db"]?.note == """
            LocalForward /tmp/pg.sock /run/postgresql/.s.PGSQL.5432 (/home/ann/.ssh/config:7): Unix-domain socket \
            forwarding is not supported by eSSH (TCP ports only) (not imported); RemoteForward 1081 \
            (/home/ann/.ssh/config:8): a RemoteForward without a target is a SOCKS proxy on the server's side, which \
            eSSH does not support (DynamicForward is one here) (not imported)
            """)
        #expect(drafts["web"]?.forwards == ["L:8080:localhost:80"])
        #expect(drafts["web"]?.note.hasPrefix("ProxyCommand nc -X 5") == true)
        #expect(drafts["web"]?.note.contains(";") == false)
        #expect(drafts["quiet"]?.forwards == [] && drafts["quiet"]?.note == "")

        let inventory = try Inventory()
        let outcome = try SSHConfigImport.save(plan, into: inventory)
        #expect(outcome.summary.tunnels == 5)
        #expect(outcome.refusedForwards.count == 2 && outcome.refusedForwards[0].hasPrefix("db: LocalForward /tmp/pg"))
        #expect(outcome.counts == "3 added, 0 updated, 0 unchanged, 0 skipped, 1 with a ProxyCommand eSSH does not "
                + "support (kept in the note), 5 tunnels added, 2 forwards eSSH does not support (left out)")
        #expect(try inventory.server(named: "db").forwards.count == 4)
        // Importing again adds nothing twice.
        let again = try SSHConfigImport.save(plan, into: inventory)
        #expect(again.summary.tunnels == 0 && again.summary.unchanged.count == 3)
    }

    @Test func theFirstStartsImportKeepsJumpHostsWithTheirChain() throws {
        let plan = try SSHConfigImport.plan(path: "/home/ann/.ssh/config", reader: reader())
        #expect(plan.drafts.map(\.name) == ["lab1", "behind", "old"])
        #expect(plan.drafts.first { $0.name == "behind" }?.jump == "bastion")
        #expect(plan.skipped.isEmpty)
    }
}
