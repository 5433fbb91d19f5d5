import Foundation
import GRDB
import Inventory
import Testing
import TestSupport

/// A saved server's algorithm lists (issue 12): stored, changed one by one, checked for shape, imported from
/// ssh_config.
@Suite struct ServerAlgorithmsTests {
    @Test func theListsAreStoredAndReadBackFromTheFile() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let choices = AlgorithmChoices(kex: "+diffie-hellman-group14-sha1", hostKeys: "+ssh-rsa",
                                       ciphers: "aes128-cbc,aes128-ctr", macs: "^hmac-sha1")
        try Inventory(path: dir.file("a.db")).addServer(ServerDraft(name: "router", host: "10.0.0.1",
                                                                    algorithms: choices))
        let reopened = try Inventory(path: dir.file("a.db")).server(named: "router")
        #expect(reopened.algorithms == choices)
        // One column per list, NULL when eSSH's defaults apply.
        let queue = try DatabaseQueue(path: dir.file("a.db"))
        defer { try? queue.close() }
        let row = try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT kexAlgorithms, hostKeyAlgorithms, ciphers, macs FROM server")
        }
        #expect(row?["ciphers"] == "aes128-cbc,aes128-ctr")
        try Inventory(path: dir.file("a.db")).addServer(ServerDraft(name: "plain", host: "h"))
        let plain = try queue.read { db in
            try Row.fetchOne(db, sql: "SELECT ciphers FROM server WHERE name = 'plain'")
        }
        #expect(plain?["ciphers"] as String? == nil)
    }

    @Test func editingChangesOneListAndAnEmptyOneGoesBackToTheDefaults() throws {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "r", host: "h",
                                            algorithms: AlgorithmChoices(ciphers: "+aes128-cbc", macs: "+hmac-sha1")))
        let changed = try inventory.updateServer(
            named: "r", ServerChanges(algorithms: AlgorithmChanges(kex: "+diffie-hellman-group1-sha1")))
        #expect(changed.algorithms == AlgorithmChoices(kex: "+diffie-hellman-group1-sha1", ciphers: "+aes128-cbc",
                                                       macs: "+hmac-sha1"))
        let cleared = try inventory.updateServer(named: "r", ServerChanges(algorithms: AlgorithmChanges(ciphers: "")))
        #expect(cleared.algorithms.ciphers == nil)
        #expect(cleared.algorithms.macs == "+hmac-sha1")
        let all = try inventory.updateServer(named: "r", ServerChanges(
            algorithms: AlgorithmChanges(replacingWith: AlgorithmChoices(hostKeys: "+ssh-rsa"))))
        #expect(all.algorithms == AlgorithmChoices(hostKeys: "+ssh-rsa"))
    }

    @Test func aListMustBeOneCommaListWithoutEmptyNames() {
        #expect(AlgorithmChoices(ciphers: "  ").ciphers == nil, "blank is no choice")
        let bad = ServerDraft(name: "r", host: "h", algorithms: AlgorithmChoices(
            kex: "a, b", hostKeys: "+", ciphers: "a,,b", macs: "-hmac-sha1,"))
        #expect(bad.problems.map(\.field) == [.kexAlgorithms, .hostKeyAlgorithms, .ciphers, .macs])
        #expect(bad.problems.first?.message == "KexAlgorithms (--kex): 'a, b' contains a space: write the "
                    + "algorithms separated by commas only.")
        #expect(ServerDraft(name: "r", host: "h", algorithms: AlgorithmChoices(ciphers: "^aes128-ctr,aes256-ctr"))
                    .problems.isEmpty)
        #expect(throws: InventoryError.self) { try Inventory().addServer(bad) }
    }

    @Test func sshConfigsAlgorithmKeywordsAreImported() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try """
            Host router
                HostName 192.168.1.1
                Ciphers +aes128-cbc
                KexAlgorithms=+diffie-hellman-group1-sha1
                HostKeyAlgorithms +ssh-rsa
                MACs hmac-sha1
                Ciphers aes256-ctr
            Host web
                HostName web.lan
            """.write(toFile: dir.file("config"), atomically: true, encoding: .utf8)
        let result = try SSHConfigReader(home: dir.path, localUser: "u").read(path: dir.file("config"))
        let router = try #require(result.hosts.first { $0.alias == "router" })
        #expect(router.algorithms == AlgorithmChoices(kex: "+diffie-hellman-group1-sha1", hostKeys: "+ssh-rsa",
                                                      ciphers: "+aes128-cbc", macs: "hmac-sha1"),
                "the first value wins, as in OpenSSH")
        #expect(result.hosts.first { $0.alias == "web" }?.algorithms.isEmpty == true)
        let inventory = try Inventory()
        _ = try inventory.importServers(result.hosts.map(\.draft))
        #expect(try inventory.server(named: "router").algorithms.ciphers == "+aes128-cbc")
        #expect(AlgorithmChoices(hostKeys: "+ssh-rsa", ciphers: "+aes128-cbc").configLines.map(\.keyword)
                    == ["HostKeyAlgorithms", "Ciphers"])
    }
}
