import Inventory
import Testing

/// Values written into ssh_config come back exactly (OpenSSH's argv_split rules, which the reader follows too), and
/// nothing in a value can become a line or a token of its own (issue 13 §3).
@Suite struct SSHConfigQuotingTests {
    @Test(arguments: [
        "plain", "with space", "quote\"inside", "it's", "back\\slash", "#hash", "a=b", "tab\there", "",
        "/home/me/my keys/id \"work\"", "100%", "trailing\\",
    ])
    func aValueReadsBackExactly(value: String) throws {
        let written = try SSHConfigQuoting.argument(value.replacingOccurrences(of: "\t", with: " "))
        let reader = SSHConfigReader(home: "/home/u", localUser: "u")
        let result = try reader.evaluate(text: "Host h\n    User \(written)\n", file: "t")
        #expect(result.hosts.first?.user == value.replacingOccurrences(of: "\t", with: " "), "written as \(written)")
    }

    @Test func percentAndTildeAreKeptLiteralWhereOpenSSHExpandsThem() throws {
        #expect(try SSHConfigQuoting.argument("/keys/100%/id", expansion: .path) == "/keys/100%%/id")
        #expect(try SSHConfigQuoting.argument("h%h", expansion: .percentTokens) == "h%%h")
        #expect(try SSHConfigQuoting.argument("100%") == "100%")
    }

    @Test func whatCannotBeWrittenIsRefused() {
        for (value, expansion) in [("/k\"\nProxyCommand touch /tmp/x", SSHConfigQuoting.Expansion.path),
                                   ("a\u{1B}b", .none), ("/keys/${HOME}/id", .path)] {
            #expect(throws: SSHConfigQuoting.Unrepresentable.self) {
                try SSHConfigQuoting.argument(value, expansion: expansion)
            }
        }
    }

    @Test func anUnquotedHashStartingAWordEndsTheLine() throws {
        let result = try SSHConfigReader(home: "/home/u", localUser: "u")
            .evaluate(text: "Host h\n    User me #not-a-user\n", file: "t")
        #expect(result.hosts.first?.user == "me")
    }
}
