import Foundation
import Inventory
import Operations
import SSH
import TestSupport
import Testing

@Suite struct ConnectionProfileTests {
    let context = ConnectionProfile.Context(environment: ["HOME": "/home/ann"], localUser: "ann")

    func server(_ auth: AuthMethod, key: String? = nil, user: String? = "ops") -> Server {
        Server(name: "web1", host: "10.0.0.5", port: 2222, user: user, auth: auth, keyPath: key)
    }

    @Test func aSavedServerGivesItsHostPortAndUser() throws {
        let options = try ConnectionProfile(server: server(.agent)).options(context: context)
        #expect(options.host == "10.0.0.5" && options.port == 2222 && options.user == "ops")
        #expect(options.useAgent && options.identityFiles.isEmpty)
        #expect(options.knownHostsFile == ConnectOptions.defaultKnownHostsFile)
    }

    @Test func noUserMeansTheLocalUserAndTheCommandLineWins() throws {
        let profile = ConnectionProfile(server: server(.agent, user: nil))
        #expect(try profile.options(context: context).user == "ann")
        let overridden = try profile.options(.init(port: 22, user: "root"), context: context)
        #expect(overridden.user == "root" && overridden.port == 22)
    }

    @Test func aServerSavedWithAKeyUsesThatKeyOnlyWithTildeExpanded() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        FileManager.default.createFile(atPath: dir.path + "/.ssh_key", contents: Data("k".utf8))
        let context = ConnectionProfile.Context(environment: ["HOME": dir.path], localUser: "ann")
        let options = try ConnectionProfile(server: server(.key, key: "~/.ssh_key")).options(context: context)
        #expect(options.identityFiles == [dir.path + "/.ssh_key"])
        #expect(!options.useAgent)
    }

    @Test func anUnreadableKeyIsAProblemNamingTheFile() {
        let profile = ConnectionProfile(server: server(.key, key: "~/missing_key"))
        #expect(throws: ConnectionProblem.self) { try profile.options(context: context) }
        do {
            _ = try profile.options(context: context)
        } catch {
            #expect(error.kind == .unreadableKey && error.detail == "/home/ann/missing_key")
            #expect(error.options.host == "10.0.0.5")
            #expect(error.message == "The key file /home/ann/missing_key does not exist or cannot be read.")
        }
    }

    @Test func keysFromTheCommandLineReplaceTheSavedWayOfLoggingIn() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let key = dir.path + "/id"
        FileManager.default.createFile(atPath: key, contents: Data("k".utf8))
        let options = try ConnectionProfile(server: server(.password)).options(.init(identityFiles: [key]),
                                                                              context: context)
        #expect(options.identityFiles == [key])
        #expect(options.useAgent)
    }

    @Test func aPasswordServerDoesNotAskTheAgent() throws {
        #expect(try !ConnectionProfile(server: server(.password)).options(context: context).useAgent)
    }

    @Test func knownHostsComesFromTheFlagThenTheVariableThenTheSetting() {
        var context = ConnectionProfile.Context(environment: ["HOME": "/h"], localUser: "u",
                                                knownHostsSetting: "~/kh-setting")
        #expect(context.knownHostsFile(explicit: nil) == "/h/kh-setting")
        context.environment["ESSH_KNOWN_HOSTS"] = "/kh-variable"
        #expect(context.knownHostsFile(explicit: nil) == "/kh-variable")
        #expect(context.knownHostsFile(explicit: "~/kh-flag") == "/h/kh-flag")
        context.environment["ESSH_KNOWN_HOSTS"] = ""
        context.knownHostsSetting = ""
        #expect(context.knownHostsFile(explicit: nil) == ConnectOptions.defaultKnownHostsFile)
    }

    @Test func aTypedDestinationUsesPort22AndTheAgent() throws {
        let profile = ConnectionProfile(destination: try Destination(parsing: "root@[::1]"))
        #expect(!profile.isSaved && profile.port == 22 && profile.auth == .agent)
        #expect(profile.label(localUser: "x") == "root@[::1]")
        #expect(ConnectionProfile(host: "h", port: 2200).label(localUser: "ann") == "ann@h:2200")
    }
}
