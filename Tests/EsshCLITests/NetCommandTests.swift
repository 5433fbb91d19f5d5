import Foundation
import Testing
import TestSupport

/// `essh net` run as a user would, against the real test sshd (a Linux server: this machine).
@Suite struct NetCommandTests {
    private func connection(_ s: TestServers) -> [String] {
        ["--known-hosts", s.knownHosts, "-i", s.key("id_ed25519"), "-p", String(s.port), "\(s.user)@127.0.0.1"]
    }

    private func net(_ s: TestServers, _ args: [String], env: [String: String] = [:]) throws -> RunResult {
        let dir = try TempDir()
        defer { dir.cleanup() }
        var environment = ["ESSH_DB": dir.file("essh.db")]
        for (k, v) in env { environment[k] = v }
        return try Binary.runEssh(["net"] + connection(s) + args, environment: environment)
    }

    private func jsonObject(_ r: RunResult) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any] ?? [:]
    }

    @Test func interfacesTableShowsLoopback() throws {
        let s = try TestServers.require()
        let r = try net(s, ["interfaces"])
        #expect(r.status == 0, "\(r.err)")
        let lo = r.out.split(separator: "\n").first { $0.hasPrefix("lo ") }
        #expect(lo?.contains("127.0.0.1") == true, "\(r.out)")
        #expect(r.out.split(separator: "\n").first?.hasPrefix("DEVICE") == true, "\(r.out)")
        #expect(r.err.isEmpty, "\(r.err)")
    }

    @Test func interfacesJSONHasTheContractKeys() throws {
        let s = try TestServers.require()
        let r = try net(s, ["interfaces", "--json"])
        #expect(r.status == 0, "\(r.err)")
        let interfaces = try jsonObject(r)["interfaces"] as? [[String: Any]] ?? []
        let lo = try #require(interfaces.first { $0["name"] as? String == "lo" })
        #expect(Set(lo.keys) == ["name", "state", "mtu", "mac", "ipv4", "ipv6", "rx_bytes", "tx_bytes"])
        let v4 = lo["ipv4"] as? [[String: Any]] ?? []
        #expect(v4.first?["address"] as? String == "127.0.0.1" && v4.first?["prefix"] as? Int == 8)
        #expect(lo["mtu"] as? Int == 65536)
    }

    /// The server is this machine, so its routes are what `ip route` prints here.
    @Test func routesMatchThisMachinesRoutingTable() throws {
        let s = try TestServers.require()
        let r = try net(s, ["routes", "--json"])
        #expect(r.status == 0, "\(r.err)")
        let routes = try jsonObject(r)["routes"] as? [[String: Any]] ?? []
        let local = try Binary.run("/bin/sh", ["-c", "ip route show table main; ip -6 route show table main"])
        let expected = try Binary.runEssh(["parse", "routes", "--json"], stdin: local.stdout)
        let expectedRoutes = try jsonObject(expected)["routes"] as? [[String: Any]] ?? []
        #expect(routes.map { $0["destination"] as? String } == expectedRoutes.map { $0["destination"] as? String })
        #expect(Set(routes.first?.keys.map { $0 } ?? []) == ["destination", "gateway", "interface", "metric", "flags",
                                                              "src", "proto", "scope"])
        let table = try net(s, ["routes"])
        #expect(table.status == 0 && table.out.split(separator: "\n").count == routes.count + 1, "\(table.out)")
    }

    @Test func socketsShowTheSshdListening() throws {
        let s = try TestServers.require()
        let r = try net(s, ["sockets"])
        #expect(r.status == 0, "\(r.err)")
        let listening = r.out.split(separator: "\n").filter { $0.contains("127.0.0.1:\(s.port) ") }
        #expect(listening.contains { $0.contains("LISTEN") && $0.hasPrefix("tcp") }, "\(r.out)")
        let json = try net(s, ["sockets", "--json"])
        let sockets = try jsonObject(json)["sockets"] as? [[String: Any]] ?? []
        #expect(sockets.contains {
            $0["local"] as? String == "127.0.0.1:\(s.port)" && $0["state"] as? String == "LISTEN"
        })
    }

    @Test func rawPrintsTheCommandOutputAsItCame() throws {
        let s = try TestServers.require()
        let r = try net(s, ["interfaces", "--raw"])
        #expect(r.status == 0, "\(r.err)")
        let parsed = try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]]
        #expect(parsed?.contains { $0["ifname"] as? String == "lo" } == true, "ip -j addr's own JSON: \(r.out)")
    }

    /// Saves the test sshd as NAME in a fresh database; gives the environment that uses it.
    private func saveServer(_ s: TestServers, _ dir: TempDir, _ name: String, _ extra: [String] = []) throws
        -> [String: String] {
        let env = ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path]
        let add = try Binary.runEssh(["servers", "add", name, "--host", "127.0.0.1", "--port", String(s.port),
                                      "--user", s.user, "--key", s.key("id_ed25519")] + extra, environment: env)
        #expect(add.status == 0, "\(add.err)")
        return env
    }

    @Test func aSavedServerHasItsSystemDetectedOnceAndStored() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let env = try saveServer(s, dir, "box")
        func os() throws -> String? {
            let list = try Binary.runEssh(["servers", "list", "--json"], environment: env)
            let servers = try JSONSerialization.jsonObject(with: list.stdout) as? [String: Any]
            return (servers?["servers"] as? [[String: Any]])?.first?["os"] as? String
        }
        #expect(try os() == "auto")
        let r = try Binary.runEssh(["net", "--known-hosts", s.knownHosts, "-v", "box", "interfaces"], environment: env)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("127.0.0.1"))
        #expect(r.err.contains("system: linux (detected)"), "\(r.err)")
        #expect(try os() == "linux")
        let again = try Binary.runEssh(["net", "--known-hosts", s.knownHosts, "-v", "box", "routes"], environment: env)
        #expect(again.status == 0, "\(again.err)")
        #expect(again.err.contains("system: linux (stored)"), "\(again.err)")
    }

    /// A saved server whose stored OS is wrong gets the other system's plan: none of its commands exist here.
    @Test func noWorkingCommandExitsOneNamingWhatWasTried() throws {
        let s = try TestServers.require()
        let dir = try TempDir()
        defer { dir.cleanup() }
        let env = try saveServer(s, dir, "win", ["--os", "windows"])
        let r = try Binary.runEssh(["net", "--known-hosts", s.knownHosts, "win", "interfaces"], environment: env)
        #expect(r.status == 1)
        #expect(r.err.contains("No interfaces command worked") && r.err.contains("ipconfig /all (not found)"),
                "\(r.err)")
        #expect(r.err.contains("essh servers edit win --os auto"), "\(r.err)")
        #expect(r.out.isEmpty)
    }

    @Test func connectionFailuresExit255() throws {
        let s = try TestServers.require()
        let closed = try LoopbackListener.closedPort()
        let r = try Binary.runEssh(["net", "--known-hosts", s.knownHosts, "-i", s.key("id_ed25519"), "-p",
                                    String(closed), "\(s.user)@127.0.0.1", "interfaces"])
        #expect(r.status == 255)
        #expect(r.err.hasPrefix("essh: "), "\(r.err)")
        #expect(r.out.isEmpty)
    }

    @Test func badArgumentsAreRefusedBeforeConnecting() throws {
        let both = try Binary.runEssh(["net", "127.0.0.1", "interfaces", "--json", "--raw"])
        #expect(both.status == 64 && both.err.contains("--json or --raw"), "\(both.err)")
        let kind = try Binary.runEssh(["net", "127.0.0.1", "disks"])
        #expect(kind.status == 64 && kind.err.contains("disks"), "\(kind.err)")
    }
}
