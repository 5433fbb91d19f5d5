import Operations
import Foundation
import Inventory
import Testing
import TUIKit
@testable import AppCore

@Suite("Forms: update")
struct FormUpdateTests {
    @Test func savingAnEmptyFormMarksTheFieldsAndSavesNothing() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("a"))
        #expect(state.screen.kind == .form)
        Fixtures.keys(&state, .tab, .tab)
        Fixtures.keys(&state, .ctrl("u"))   // clears the port's 22
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        let form = try! #require(state.form)
        #expect(form.fields.first { $0.key == "name" }?.error == "Give the server a name, e.g. web1.")
        #expect(form.fields.first { $0.key == "host" }?.error != nil)
        #expect(form.fields.first { $0.key == "port" }?.error == "A port is a number from 1 to 65535.")
        #expect(form.focus == 0, "focus goes to the first wrong field")
    }

    @Test func namesAndUsersInventoryRefusesAreRefusedByTheFormToo() {
        for (name, user) in [("tag:db", ""), ("a*b", ""), ("-x", ""), ("web1", "ops@corp")] {
            var state = Fixtures.loaded()
            Fixtures.keys(&state, .character("a"))
            Fixtures.type(&state, name)
            Fixtures.keys(&state, .tab)
            Fixtures.type(&state, "10.0.0.5")
            Fixtures.keys(&state, .tab, .tab)
            Fixtures.type(&state, user)
            #expect(Fixtures.keys(&state, .enter).isEmpty, "\(name) \(user) must not be saved")
            let form = try! #require(state.form)
            let field = user.isEmpty ? "name" : "user"
            #expect(form.fields.first { $0.key == field }?.error != nil, "\(name) \(user)")
        }
    }

    /// `user@host:port` and `ssh://user@host:port` in Host are split by the rule `servers add --host` follows; User
    /// and Port count as given only when changed, and then must not contradict Host.
    @Test func anAddressTypedInHostIsSplitAndContradictionsAreShownOnTheirField() {
        func form(host: String, port: String? = nil, user: String? = nil) -> (AppState, [Effect]) {
            var state = Fixtures.loaded()
            Fixtures.keys(&state, .character("a"))
            Fixtures.type(&state, "box")
            Fixtures.keys(&state, .tab)
            Fixtures.type(&state, host)
            Fixtures.keys(&state, .tab)
            if let port {
                Fixtures.keys(&state, .ctrl("u"))
                Fixtures.type(&state, port)
            }
            Fixtures.keys(&state, .tab)
            if let user { Fixtures.type(&state, user) }
            let effects = Fixtures.keys(&state, .enter)
            return (state, effects)
        }
        let split = form(host: "ssh://alice@10.0.0.9:2200").1
        #expect(split == [.saveServer(ServerDraft(name: "box", host: "10.0.0.9", port: 2200, user: "alice",
                                                  auth: .agent), replacing: nil)])
        #expect(form(host: "[2001:db8::1]:2201", port: "").1
                == [.saveServer(ServerDraft(name: "box", host: "2001:db8::1", port: 2201, auth: .agent),
                                replacing: nil)])
        #expect(form(host: "alice@h", user: "alice").1.count == 1)
        let user = form(host: "alice@h:2200", user: "bob").0
        #expect(user.form?.fields.first { $0.key == "user" }?.error == "Host says user alice, this says bob: keep one.")
        let port = form(host: "h:2200", port: "2201").0
        #expect(port.form?.fields.first { $0.key == "port" }?.error == "Host says port 2200, this says 2201: keep one.")
        let path = form(host: "ssh://h/etc").0
        #expect(path.form?.fields.first { $0.key == "host" }?.error?.hasPrefix("Not an address: ") == true)
    }

    @Test func aValidFormBecomesADraftAndTypingClearsTheError() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("a"))
        Fixtures.keys(&state, .enter)
        Fixtures.type(&state, "box")
        #expect(state.form?.fields[0].error == nil)
        Fixtures.keys(&state, .tab)
        Fixtures.type(&state, "127.0.0.1")
        Fixtures.keys(&state, .tab, .ctrl("u"))
        Fixtures.type(&state, "2222")
        Fixtures.keys(&state, .tab, .tab, .ctrl("u"))
        Fixtures.type(&state, "key")
        Fixtures.keys(&state, .tab)
        Fixtures.type(&state, "~/.ssh/id_ed25519")
        Fixtures.keys(&state, .tab, .tab, .tab, .tab)
        Fixtures.type(&state, "lab, test")
        let effects = Fixtures.keys(&state, .enter)
        #expect(effects == [.saveServer(ServerDraft(name: "box", host: "127.0.0.1", port: 2222, user: nil, auth: .key,
                                                    keyPath: "~/.ssh/id_ed25519", os: .auto, tags: ["lab", "test"],
                                                    note: ""), replacing: nil)])
        _ = Update.update(&state, .serverSaveFailed("A server named box already exists."))
        #expect(state.form?.error == "A server named box already exists.")
        #expect(Update.update(&state, .serverSaved("box")) == [.load])
        #expect(state.screen.kind == .servers)
    }

    /// The Jump field: the chain's syntax and loops through saved servers, the rule `servers add --jump` applies.
    @Test func theJumpFieldTakesAChainAndRefusesBadOnesAndLoops() {
        var state = Fixtures.loaded()
        _ = Update.update(&state, .loaded(servers: Fixtures.servers + [
            Server(id: 9, name: "gw", host: "10.9.0.1", port: 22, user: nil, auth: .agent, keyPath: nil, os: .linux,
                   tags: [], note: "", createdAt: Fixtures.now, updatedAt: Fixtures.now, lastConnectedAt: nil,
                   jump: "web1"),
        ], checks: Fixtures.checks, settings: [:]))
        Fixtures.keys(&state, .character("e"))  // web1
        #expect(state.form?.purpose == .editServer("web1"))
        for _ in 0..<7 { Fixtures.keys(&state, .tab) }
        #expect(state.form?.fields[state.form?.focus ?? 0].key == "jump")
        Fixtures.type(&state, "gw,,x")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.form?.fields.first { $0.key == "jump" }?.error?.contains("is empty") == true)
        Fixtures.keys(&state, .ctrl("u"))
        Fixtures.type(&state, "gw")
        #expect(Fixtures.keys(&state, .enter).isEmpty, "web1 → gw → web1 is not saved")
        #expect(state.form?.fields.first { $0.key == "jump" }?.error?.contains("web1 → gw → web1") == true)
        Fixtures.keys(&state, .ctrl("u"))
        Fixtures.type(&state, "admin@bastion:2222")
        let effects = Fixtures.keys(&state, .enter)
        guard case .work(.saveServer(let draft, let replacing))? = effects.first else {
            Issue.record("not saved: \(effects)")
            return
        }
        #expect(draft.jump == "admin@bastion:2222" && replacing == "web1")
    }

    /// The Password field: the rule `servers add --credential` applies (spelling, a command's program on PATH).
    @Test func thePasswordFieldTakesACredentialSourceByTheCommandLinesRule() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("a"))
        Fixtures.type(&state, "db1")
        Fixtures.keys(&state, .tab)
        Fixtures.type(&state, "10.0.0.7")
        for _ in 0..<5 { Fixtures.keys(&state, .tab) }
        #expect(state.form?.fields[state.form?.focus ?? 0].key == "credential")
        #expect(state.form?.text("credential") == "ask")
        Fixtures.keys(&state, .ctrl("u"))
        Fixtures.type(&state, "keyring")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.form?.fields.first { $0.key == "credential" }?.error == "Type ask, vault or command:PROGRAM ARGS.")
        Fixtures.keys(&state, .ctrl("u"))
        Fixtures.type(&state, "command:no-such-essh-program show db1")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.form?.fields.first { $0.key == "credential" }?.error
                == "'no-such-essh-program' is not on PATH; give its absolute path.")
        Fixtures.keys(&state, .ctrl("u"))
        Fixtures.type(&state, "command:/bin/cat '/run/my secret'")
        #expect(Fixtures.keys(&state, .enter) == [.saveServer(ServerDraft(
            name: "db1", host: "10.0.0.7", auth: .agent, credential: .command("/bin/cat '/run/my secret'")),
                                                             replacing: nil)])
        // Editing shows what was saved.
        var server = Fixtures.servers[0]
        server.credential = .vault
        #expect(FormState.server(server).text("credential") == "vault")
    }

    @Test func keyAuthNeedsAKeyFileAndTheOSMustBeKnown() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("e"))
        #expect(state.form?.purpose == .editServer("web1"))
        #expect(state.form?.text("host") == "10.0.0.5")
        for _ in 0..<4 { Fixtures.keys(&state, .tab) }
        Fixtures.keys(&state, .ctrl("u"))
        Fixtures.type(&state, "key")
        Fixtures.keys(&state, .tab, .tab, .tab, .tab, .ctrl("u"))
        Fixtures.type(&state, "plan9")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.form?.fields.first { $0.key == "key" }?.error?.contains("key file") == true)
        #expect(state.form?.fields.first { $0.key == "os" }?.error == "Type auto, linux, macos, bsd or windows.")
        Fixtures.keys(&state, .escape)
        #expect(state.screen.kind == .servers)
        #expect(state.form == nil)
    }

    @Test func theAlgorithmFieldsTakeOpenSSHsSyntaxAndRefuseUnknownNames() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("a"))
        Fixtures.type(&state, "router")
        Fixtures.keys(&state, .tab)
        Fixtures.type(&state, "192.168.1.1")
        // Name, Host, Port, User, Auth, Key file, Password, Jump, OS, Tags, Note, then KEX, Host key, Ciphers, MACs.
        for _ in 0..<10 { Fixtures.keys(&state, .tab) }
        #expect(state.form?.fields[state.form?.focus ?? 0].key == "kexAlgorithms")
        Fixtures.keys(&state, .tab, .tab)
        Fixtures.type(&state, "+aes128cbc")
        Fixtures.keys(&state, .tab)
        Fixtures.type(&state, "+hmac-sha1")
        #expect(Fixtures.keys(&state, .enter).isEmpty, "an unknown cipher is not saved")
        #expect(state.form?.fields.first { $0.key == "ciphers" }?.error == "“aes128cbc” is not a cipher eSSH supports.")
        #expect(state.form?.fields[state.form?.focus ?? 0].key == "ciphers", "focus on the wrong field")
        Fixtures.keys(&state, .ctrl("u"))
        Fixtures.type(&state, "+aes128-cbc")
        let effects = Fixtures.keys(&state, .enter)
        #expect(effects == [.saveServer(ServerDraft(name: "router", host: "192.168.1.1", auth: .agent,
                                                    algorithms: AlgorithmChoices(ciphers: "+aes128-cbc",
                                                                                 macs: "+hmac-sha1")),
                                        replacing: nil)])
        // Editing shows what was saved.
        var server = Fixtures.servers[0]
        server.algorithms = AlgorithmChoices(hostKeys: "+ssh-rsa")
        let form = FormState.server(server)
        #expect(form.text("hostKeyAlgorithms") == "+ssh-rsa")
        #expect(form.text("ciphers").isEmpty)
    }

    @Test func quickConnectResolvesTheNameByTheCommandLinesRuleThenConnects() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("n"))
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.form?.fields[0].error != nil)
        Fixtures.type(&state, "root@[::1]:2200")
        // The store worker resolves it (saved servers first, then ~/.ssh/config), as `essh exec` does.
        #expect(Fixtures.keys(&state, .enter) == [.work(.resolveDestination("root@[::1]:2200"))])
        #expect(state.screen.kind == .form)
        let profile = ConnectionProfile(host: "::1", port: 2200, user: "root")
        let resolution = ConnectionProfile.Resolution(profile: profile, destination: nil,
                                                      origin: "from ~/.ssh/config line 4", notes: [])
        let effects = Update.update(&state, .destinationResolved(resolution))
        #expect(effects == [.connect(profile, knownHosts: "")])
        #expect(state.connecting?.origin == "root@[::1]:2200: from ~/.ssh/config line 4")
        #expect(Fixtures.screen(state).contains { $0.contains("root@[::1]:2200: from ~/.ssh/config line 4") },
                "the connecting screen says where the name came from")
        // A failed quick connect goes back to the servers, not to the form.
        _ = Update.update(&state, .connectFailed("refused"))
        #expect(state.screen.kind == .servers)
    }

    @Test func aNameThatCannotBeResolvedIsShownAtTheFieldAndALateAnswerIsDropped() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("n"))
        Fixtures.type(&state, "lab1")
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .destinationFailed("~/.ssh/config line 3: Port 'x' (for lab1) is not a port."))
        #expect(state.form?.fields[0].error == "~/.ssh/config line 3: Port 'x' (for lab1) is not a port.")
        Fixtures.keys(&state, .escape)
        let late = ConnectionProfile.Resolution(profile: ConnectionProfile(host: "lab1"), destination: nil,
                                                origin: "", notes: [])
        #expect(Update.update(&state, .destinationResolved(late)).isEmpty, "the form was left: nothing connects")
        #expect(state.screen.kind == .servers)
    }

    @Test func settingsAreValidatedThenSaved() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("s"))
        Fixtures.keys(&state, .tab, .ctrl("u"))
        Fixtures.type(&state, "soon")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.form?.fields[1].error == "Give whole seconds from 0 to 86400.")
        Fixtures.keys(&state, .ctrl("u"))
        Fixtures.type(&state, "60")
        Fixtures.keys(&state, .backTab, .ctrl("u"))
        Fixtures.type(&state, "off")
        let effects = Fixtures.keys(&state, .enter)
        #expect(state.settings.checkInterval == 60)
        #expect(!state.settings.parse)
        guard case .saveSettings(let values)? = effects.first?.work else {
            Issue.record("expected saveSettings, got \(effects)")
            return
        }
        #expect(values["check.interval"] == "60")
        #expect(values["ui.parse"] == "off")
        #expect(Settings(stored: values) == state.settings)
    }
}
