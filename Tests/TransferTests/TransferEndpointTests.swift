import Testing
import Transfer

/// `essh cp`'s operands as scp reads them, plus the port form `host:2222:path` and the fleet form `:PATH`.
@Suite struct TransferEndpointTests {
    private func read(_ text: String) throws -> TransferEndpoint { try TransferEndpoint(parsing: text) }
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func serversAndPaths() throws {
        #expect(try read("web1:/etc/nginx/nginx.conf") == .remote(server: "web1", path: bytes("/etc/nginx/nginx.conf")))
        #expect(try read("web1:") == .remote(server: "web1", path: []))
        #expect(try read("admin@10.0.0.5:2222:/var/log/syslog")
                == .remote(server: "admin@10.0.0.5:2222", path: bytes("/var/log/syslog")))
        #expect(try read("web1:notes.txt") == .remote(server: "web1", path: bytes("notes.txt")))
        // A name that only looks like a port is written with ./ in front.
        #expect(try read("web1:./2222:x") == .remote(server: "web1", path: bytes("./2222:x")))
        #expect(try read("a@b@host:f") == .remote(server: "a@b@host", path: bytes("f")))
    }

    @Test func ipv6InBrackets() throws {
        #expect(try read("[fd00::5]:/srv/") == .remote(server: "[fd00::5]", path: bytes("/srv/")))
        #expect(try read("[fd00::5]:2222:/srv/") == .remote(server: "[fd00::5]:2222", path: bytes("/srv/")))
        #expect(try read("root@[::1]:file") == .remote(server: "root@[::1]", path: bytes("file")))
    }

    @Test func localPaths() throws {
        for text in [".", "./site", "/etc/hosts", "relative/file", "./a:b", "/srv/a:b", "a/b:c", "-dash", "name with space"] {
            #expect(try read(text) == .local(path: bytes(text)), "\(text)")
        }
        // Not UTF-8, a newline: kept as bytes.
        let odd: [UInt8] = [UInt8(ascii: "."), UInt8(ascii: "/"), 0xFF, 0x0A, UInt8(ascii: "x")]
        #expect(try TransferEndpoint(parsing: odd) == .local(path: odd))
        #expect(try TransferEndpoint(parsing: Array("web1:".utf8) + [0xFF, 0x0A]) == .remote(server: "web1", path: [0xFF, 0x0A]))
    }

    @Test func theFleetForm() throws {
        #expect(try read(":/etc/app/") == .fleet(path: bytes("/etc/app/")))
        #expect(try read(":") == .fleet(path: []))
    }

    @Test func badOperandsSayWhy() {
        func problem(_ text: [UInt8]) -> String? {
            do throws(TransferEndpoint.Problem) {
                _ = try TransferEndpoint(parsing: text)
                return nil
            } catch {
                return error.message
            }
        }
        #expect(problem([])?.hasPrefix("An empty path names nothing") == true)
        #expect(problem(bytes("@:x"))?.contains("is not a server: the user before @ is empty") == true)
        #expect(problem(bytes("web1:99999:/x"))?.contains("the port “99999” is not a number from 1 to 65535") == true)
        #expect(problem(bytes("[fd00::5"))?.contains("has a “[” without its “]”") == true)
        #expect(problem(bytes("[fd00::5]x:/p"))?.contains("unexpected text after “]”") == true)
        #expect(problem([0xFF, UInt8(ascii: ":"), UInt8(ascii: "x")])?.contains("“\\xFF” is not a server name") == true)
        #expect(problem(bytes("ho st:/x"))?.contains("the host contains spaces") == true)
    }

    @Test func messagesShowBytesSafely() {
        #expect(TransferEndpoint.shown(Array("caf\u{e9}".utf8)) == "caf\u{e9}")
        #expect(TransferEndpoint.shown([0x61, 0x1B, 0x5B, 0xFF]) == "a\\x1B[\\xFF")
    }
}
