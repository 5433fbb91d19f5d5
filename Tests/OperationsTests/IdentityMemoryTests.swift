import Foundation
import Inventory
import Operations
import SSH
import TestSupport
import Testing

/// Remembering the key that logged in to a saved server and offering it first (issue 17 §2): one policy in
/// Operations for every front end.
@Suite struct IdentityMemoryTests {
    let context = ConnectionProfile.Context(environment: ["HOME": "/home/ann"], localUser: "ann")

    func server(_ auth: AuthMethod, lastIdentity: String?) -> Server {
        var server = Server(name: "web1", host: "10.0.0.5", auth: auth)
        server.lastIdentity = lastIdentity
        return server
    }

    @Test func aRememberedAgentKeyIsOfferedFirst() throws {
        let options = try ConnectionProfile(server: server(.agent, lastIdentity: "agent:SHA256:abc"))
            .options(context: context)
        #expect(options.preferredIdentity == .agentKey(fingerprint: "SHA256:abc"))
        #expect(options.useAgent)
    }

    @Test func aRememberedKeyFileThatExistsIsOfferedFirst() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let key = dir.file("id_ed25519")
        FileManager.default.createFile(atPath: key, contents: Data("k".utf8))
        let profile = ConnectionProfile(server: server(.password, lastIdentity: "file:" + key))
        #expect(try profile.options(context: context).preferredIdentity == .keyFile(path: key))
        // -i names the keys for this run: nothing remembered goes before them.
        #expect(try profile.options(.init(identityFiles: [key]), context: context).preferredIdentity == nil)
    }

    @Test func aStoredIdentityThatIsGoneOrUnreadableIsIgnored() throws {
        for stored in ["file:/nonexistent/essh-test/id_ed25519", "agent:md5:aa", "rubbish", "file:", ""] {
            let options = try ConnectionProfile(server: server(.agent, lastIdentity: stored)).options(context: context)
            #expect(options.preferredIdentity == nil, "\(stored)")
        }
        #expect(try ConnectionProfile(server: server(.agent, lastIdentity: nil)).options(context: context)
            .preferredIdentity == nil)
        #expect(try ConnectionProfile(host: "h").options(context: context).preferredIdentity == nil)
    }

    @Test func onlyAKeyThatDiffersFromTheStoredOneIsAChange() {
        let agent = LoginIdentity.agentKey(comment: "me@laptop", fingerprint: "SHA256:abc")
        #expect(IdentityMemory.change(after: agent, stored: nil) == "agent:SHA256:abc")
        #expect(IdentityMemory.change(after: agent, stored: "agent:SHA256:abc") == nil)
        #expect(IdentityMemory.change(after: .keyFile(path: "/k", fingerprint: nil), stored: "agent:SHA256:abc")
            == "file:/k")
        for identity: LoginIdentity in [.password, .keyboardInteractive, .none] {
            #expect(IdentityMemory.change(after: identity, stored: "file:/k") == nil)
        }
    }

    @Test func aKeyLoginIsRecordedOnTheSavedServerAndAPasswordLoginIsNot() throws {
        let inventory = try Inventory()
        let saved = try inventory.addServer(ServerDraft(name: "db1", host: "h"), at: Date(timeIntervalSince1970: 1000))
        let profile = ConnectionProfile(server: saved)
        #expect(try IdentityMemory.record(.password, for: profile, in: inventory) == nil)
        #expect(try inventory.server(named: "db1").lastIdentity == nil)
        let agent = LoginIdentity.agentKey(comment: "c", fingerprint: "SHA256:abc")
        #expect(try IdentityMemory.record(agent, for: profile, in: inventory) == "agent:SHA256:abc")
        let after = try inventory.server(named: "db1")
        #expect(after.lastIdentity == "agent:SHA256:abc" && after.updatedAt == saved.updatedAt)
        // The same key again writes nothing; a typed destination is never recorded.
        #expect(try IdentityMemory.record(agent, for: ConnectionProfile(server: after), in: inventory) == nil)
        #expect(try IdentityMemory.record(agent, for: ConnectionProfile(host: "h"), in: inventory) == nil)
        #expect(try IdentityMemory.record(agent, for: profile, in: nil) == nil)
    }
}
