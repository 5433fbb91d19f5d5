import AppCore
import Foundation
import Inventory
import Operations
import Testing
import TestSupport
@testable import App

/// The store worker against an in-memory inventory.
@Suite("StoreWorker")
struct StoreWorkerTests {
    @Test func savesLoadsAndDeletesServers() throws {
        let inventory = try Inventory()
        let posted = Posted()
        let worker = StoreWorker(inventory: inventory, post: posted.post)
        worker.save(ServerDraft(name: "web1", host: "10.0.0.5", port: 22, user: "admin"), replacing: nil)
        worker.load()
        worker.waitUntilIdle(seconds: 5)
        guard case .serverSaved("web1") = posted.all.first else {
            Issue.record("first message: \(posted.all)")
            return
        }
        guard case .loaded(let servers, _, _) = posted.all.last else {
            Issue.record("last message: \(posted.all)")
            return
        }
        #expect(servers.map(\.name) == ["web1"])
        worker.save(ServerDraft(name: "web2", host: "10.0.0.6", port: 2222, user: nil), replacing: "web1")
        worker.delete("nosuch")
        worker.waitUntilIdle(seconds: 5)
        #expect(try inventory.servers().map(\.name) == ["web2"])
        guard case .storeFailed = posted.all.last else {
            Issue.record("deleting a server that does not exist says so: \(posted.all)")
            return
        }
    }

    /// Another process's write (`essh servers add` while the interface runs) is noticed through the database's
    /// data_version and loaded; the worker's own writes are not taken for one.
    @Test func aChangeMadeByAnotherConnectionIsNoticedAndLoaded() throws {
        let folder = NSTemporaryDirectory() + "essh-watch-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/essh.db"
        let inventory = try Inventory(path: path)
        let posted = Posted()
        let worker = StoreWorker(inventory: inventory, post: posted.post)
        worker.watch(every: 0.05)
        defer { worker.stopWatching() }
        worker.save(ServerDraft(name: "own", host: "h"), replacing: nil)
        worker.waitUntilIdle(seconds: 5)
        usleep(300_000)
        #expect(!posted.all.contains { if case .loaded = $0 { return true } else { return false } },
                "its own write is no change from elsewhere: \(posted.all)")
        let cli = try Inventory(path: path)
        try cli.addServer(ServerDraft(name: "fromcli", host: "h2"))
        let messages = posted.wait(seconds: 5) { messages in
            messages.contains { if case .loaded = $0 { return true } else { return false } }
        }
        guard case .loaded(let servers, _, _)? = messages.last(where: {
            if case .loaded = $0 { return true } else { return false }
        }) else {
            Issue.record("no load after another connection's write: \(messages)")
            return
        }
        #expect(servers.map(\.name) == ["fromcli", "own"])
    }

    @Test func aDuplicateNameComesBackAsASaveFailure() throws {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "web1", host: "h", port: 22, user: nil))
        let posted = Posted()
        let worker = StoreWorker(inventory: inventory, post: posted.post)
        worker.save(ServerDraft(name: "web1", host: "other", port: 22, user: nil), replacing: nil)
        worker.waitUntilIdle(seconds: 5)
        guard case .serverSaveFailed(let text)? = posted.all.first else {
            Issue.record("got \(posted.all)")
            return
        }
        #expect(!text.isEmpty)
    }

    @Test func historyComesBackOldestFirstWithRepeatsFolded() throws {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "web1", host: "h", port: 22, user: nil))
        let posted = Posted()
        let worker = StoreWorker(inventory: inventory, post: posted.post)
        for command in ["uptime", "df -h", "df -h", "id"] {
            worker.appendHistory(server: "web1", command: command, status: 0)
        }
        worker.recordConnection("web1", os: .linux)
        worker.saveSettings(["ui.parse": "off"])
        worker.loadHistory("web1")
        worker.waitUntilIdle(seconds: 5)
        guard case .history(let commands)? = posted.all.last else {
            Issue.record("got \(posted.all)")
            return
        }
        #expect(commands == ["uptime", "df -h", "id"])
        #expect(try inventory.allSettings()["ui.parse"] == "off")
        #expect(try inventory.servers().first?.lastConnectedAt != nil)
        #expect(posted.all.contains { if case .settingsSaved = $0 { true } else { false } })
    }

    /// A worker whose $HOME is `dir`, with `config` as its ~/.ssh/config.
    private func worker(_ inventory: Inventory, _ posted: Posted, home dir: TempDir, config: String) throws
        -> StoreWorker
    {
        try FileManager.default.createDirectory(atPath: dir.file(".ssh"), withIntermediateDirectories: true)
        try config.write(toFile: dir.file(".ssh/config"), atomically: true, encoding: .utf8)
        return StoreWorker(inventory: inventory, post: posted.post,
                           context: ConnectionProfile.Context(environment: ["HOME": dir.path], localUser: "me"))
    }

    @Test func quickConnectsNamesAreResolvedSavedServersFirst() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "saved", host: "192.0.2.9"))
        let posted = Posted()
        let store = try worker(inventory, posted, home: dir,
                               config: "Host lab1 saved\n  HostName 10.0.0.7\n  Port 2200\nHost bad\n  Port x\n")
        store.resolve("lab1")
        store.resolve("saved")
        store.resolve("bad")
        store.waitUntilIdle(seconds: 5)
        let all = posted.all
        guard all.count == 3, case .destinationResolved(let lab1) = all[0], case .destinationResolved(let saved) = all[1],
              case .destinationFailed(let bad) = all[2] else {
            Issue.record("got \(all)")
            return
        }
        #expect(lab1.profile.host == "10.0.0.7" && lab1.profile.port == 2200 && lab1.origin == "from ~/.ssh/config line 1")
        #expect(saved.profile.host == "192.0.2.9" && saved.origin == "saved server")
        #expect(saved.notes == ["~/.ssh/config line 1 names saved too; the saved server comes first."])
        #expect(bad.contains("Port 'x'"))
    }

    @Test func theSSHConfigOfferFindsHostsImportsThemAndRemembersNo() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let inventory = try Inventory()
        let posted = Posted()
        let store = try worker(inventory, posted, home: dir, config: """
            Host lab1
              HostName 10.0.0.7
              User alice
            Host behind
              ProxyJump lab1
            Host badport
              Port 99999
            Host *
              User everyone
            """)
        store.findSSHConfigHosts()
        store.importSSHConfig()
        store.declineSSHConfigImport()
        store.waitUntilIdle(seconds: 5)
        let all = posted.all
        guard all.count == 2, case .sshConfigHosts(let hosts) = all[0], case .sshConfigImported(let line) = all[1] else {
            Issue.record("got \(all)")
            return
        }
        #expect(hosts == ["lab1", "behind"], "the offer names only what the import saves")
        #expect(line == "Imported ~/.ssh/config: 2 added, 0 updated, 0 unchanged, 1 skipped "
                + "(essh servers import-ssh-config says why).")
        #expect(try inventory.servers().map(\.name) == ["behind", "lab1"])
        #expect(try inventory.server(named: "behind").jump == "lab1", "a jump host is saved with its chain")
        #expect(try inventory.setting(Update.sshConfigOfferSetting) == "declined")
        // No ~/.ssh/config: nothing is offered.
        try FileManager.default.removeItem(atPath: dir.file(".ssh/config"))
        store.findSSHConfigHosts()
        store.waitUntilIdle(seconds: 5)
        #expect(posted.all.count == 2)
    }
}
