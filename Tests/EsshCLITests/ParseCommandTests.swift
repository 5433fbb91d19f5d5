import Foundation
import Testing
import TestSupport

@Suite struct ParseCommandTests {
    private let fixtures = RepoPaths.root + "/Tests/NetParsersTests/Fixtures"

    @Test func interfacesTableFromAFile() throws {
        let r = try Binary.runEssh(["parse", "interfaces", fixtures + "/linux/ip-addr.out"])
        #expect(r.status == 0)
        let lines = r.out.split(separator: "\n")
        #expect(lines.first?.hasPrefix("DEVICE  STATE") == true)
        #expect(r.out.contains("down0   down    9000  198.51.100.7"))
        #expect(r.err.isEmpty)
    }

    @Test func jsonFromStandardInputKeepsEveryKey() throws {
        let input = try Data(contentsOf: URL(fileURLWithPath: fixtures + "/linux/route-n.out"))
        let r = try Binary.runEssh(["parse", "routes", "--json"], stdin: input)
        #expect(r.status == 0)
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: [[String: Any]]]
        let first = try #require(object?["routes"]?.first)
        #expect(first["destination"] as? String == "0.0.0.0/0")
        #expect(Set(first.keys) == ["destination", "gateway", "interface", "metric", "flags", "src", "proto", "scope"])
        #expect(first["src"] is NSNull, "route -n has no src: null, never guessed")
    }

    /// ip route's src, proto and scope, and one spelling of socket states across ss and netstat, through the binary.
    @Test func jsonKeepsRouteSourcesAndSpellsSocketStatesOneWay() throws {
        let routes = try Binary.runEssh(["parse", "routes", "--json", RepoPaths.shared + "/fixtures/network/centos-7.7/ip_route.out"])
        #expect(routes.status == 0, "\(routes.err)")
        let table = try JSONSerialization.jsonObject(with: routes.stdout) as? [String: [[String: Any]]]
        let kernel = try #require(table?["routes"]?.first { $0["destination"] as? String == "10.0.2.0/24" })
        #expect(kernel["src"] as? String == "10.0.2.15" && kernel["proto"] as? String == "kernel"
                && kernel["scope"] as? String == "link")
        var states: [String: Set<String>] = [:]
        for file in ["centos-7.7/ss-sudo-a.out", "centos-7.7/netstat.out"] {
            let r = try Binary.runEssh(["parse", "sockets", "--json", RepoPaths.shared + "/fixtures/network/" + file])
            #expect(r.status == 0, "\(r.err)")
            let doc = try JSONSerialization.jsonObject(with: r.stdout) as? [String: [[String: Any]]]
            for socket in doc?["sockets"] ?? [] where socket["proto"] as? String == "tcp" {
                states[file, default: []].insert(socket["state"] as? String ?? "")
            }
        }
        #expect(states["centos-7.7/ss-sudo-a.out"]?.contains("ESTABLISHED") == true, "ss's ESTAB")
        #expect(states["centos-7.7/netstat.out"] == ["ESTABLISHED"])
    }

    @Test func socketsWithANamedFormat() throws {
        let r = try Binary.runEssh(["parse", "sockets", "--format", "ss", fixtures + "/linux/ss-tulpn.out"])
        #expect(r.status == 0)
        #expect(r.out.contains("python3"))
    }

    @Test func unrecognisedInputExitsOneNamingTheFormatsTried() throws {
        let r = try Binary.runEssh(["parse", "routes"], stdin: Data("nothing to see here\n".utf8))
        #expect(r.status == 1)
        #expect(r.err.contains("route -n"))
        #expect(r.err.contains("ip route"))
        #expect(r.err.contains("route print (Windows)"))
        #expect(r.out.isEmpty)
    }

    @Test func aMissingFileExitsTwoWithItsName() throws {
        let r = try Binary.runEssh(["parse", "interfaces", "/nonexistent/ifconfig.txt"])
        #expect(r.status == 2)
        #expect(r.err.contains("Cannot read /nonexistent/ifconfig.txt: it does not exist"))
    }

    @Test func aDirectoryIsRefused() throws {
        let r = try Binary.runEssh(["parse", "interfaces", fixtures])
        #expect(r.status == 2)
        #expect(r.err.contains("it is a folder"))
    }

    @Test func aPipeIsReadLikeAFile() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let fifo = dir.file("routes")
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            let text = "default via 10.0.0.1 dev eth0\n"
            _ = text.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        writer.start()
        let r = try Binary.runEssh(["parse", "routes", fifo])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("10.0.0.1"))
    }

    @Test func partlyRecognisedInputWarnsOnStandardError() throws {
        let text = "eth0: flags=4163<UP>  mtu 1500\n        inet 10.0.0.1  netmask 255.0.0.0\n#junk\n"
        let r = try Binary.runEssh(["parse", "interfaces", "--json"], stdin: Data(text.utf8))
        #expect(r.status == 0)
        #expect(r.err.contains("warning: standard input: line 3"))
        #expect(r.out.contains("\"10.0.0.1\""))
    }

    @Test func aFormatWithoutLayoutsForTheKindIsAnError() throws {
        let r = try Binary.runEssh(["parse", "interfaces", "--format", "ss"], stdin: Data("x\n".utf8))
        #expect(r.status == 1)
        #expect(r.err.contains("--format"))
    }

    @Test func anUnknownFormatNameIsRejectedByTheParser() throws {
        let r = try Binary.runEssh(["parse", "interfaces", "--format", "nope"], stdin: Data())
        #expect(r.status != 0)
        #expect(r.err.contains("nope"))
    }
}
