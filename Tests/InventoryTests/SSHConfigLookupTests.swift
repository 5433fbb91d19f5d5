import Foundation
import Inventory
import Testing

/// Files in a dictionary (globbing with fnmatch(3), as glob(3) would).
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

/// Looking one typed name up in ssh_config, as `ssh -G NAME` does for the keywords eSSH uses.
@Suite struct SSHConfigLookupTests {
    private let top = "/home/u/.ssh/config"

    private func lookup(_ name: String, _ text: String, more: [String: String] = [:]) throws -> SSHConfigLookup {
        var files = more
        files[top] = text
        let reader = SSHConfigReader(home: "/home/u", localUser: "u", source: Files(files: files))
        return try #require(try reader.lookup(name, path: top))
    }

    @Test func aHostGivesItsValuesWithTheirLinesAndTheFirstValueWins() throws {
        let found = try lookup("lab1", """
            # lab
            Host lab1 lab2
                HostName 10.0.0.5
                Port 2222
                User alice
                IdentityFile ~/.ssh/lab_%n
            Host lab*
                User bob
                Port 2200
                IdentityFile ~/.ssh/second
            """)
        #expect(found.hostName == .init(keyword: "HostName", text: "10.0.0.5",
                                        location: .init(file: top, line: 3)))
        #expect(found.portNumber == 2222 && found.user?.text == "alice")
        #expect(found.identityFiles.map(\.text) == ["/home/u/.ssh/lab_lab1", "/home/u/.ssh/second"],
                "IdentityFile collects, as in OpenSSH; tokens expanded")
        #expect(found.blocks == [.init(file: top, line: 2), .init(file: top, line: 7)])
        #expect(found.namedLiterally)
        #expect(found.blocks[0].text(home: "/home/u") == "~/.ssh/config line 2")
    }

    @Test func wildcardsAndNegationDecideWhichBlocksApply() throws {
        let text = """
            Host *.lan !printer.lan
                User admin
            Host web?
                HostName %h.example.com
            """
        let web = try lookup("web1", text)
        #expect(web.hostName?.text == "web1.example.com" && web.user == nil && !web.namedLiterally)
        #expect(try lookup("nas.lan", text).user?.text == "admin")
        #expect(try lookup("printer.lan", text).isEmpty, "a matching negated pattern rejects the block")
        #expect(try lookup("elsewhere", text).isEmpty)
    }

    @Test func includedFilesAreReadWhereTheIncludeStands() throws {
        let found = try lookup("db", """
            Host db
                Include conf.d/*
                Port 2022
            """, more: ["/home/u/.ssh/conf.d/a": "Port 3000\nUser from-include\n"])
        #expect(found.portNumber == 3000, "the included line comes first")
        #expect(found.port?.location == SSHConfigLocation(file: "/home/u/.ssh/conf.d/a", line: 1))
        #expect(found.blocks == [SSHConfigLocation(file: top, line: 1)], "the block is the Host line that included it")
    }

    @Test func simpleMatchBlocksAreEvaluatedAndOthersSkippedWithANote() throws {
        let text = """
            Host lab1
                HostName box.internal
            Match host box.internal
                User by-host
            Match originalhost lab1 user by-host
                Port 2201
            Match exec "test -e /tmp/x"
                IdentityFile ~/.ssh/exec_key
            Match !localuser u
                Port 9
            Match all
                Port 2222
            """
        let found = try lookup("lab1", text)
        #expect(found.user?.text == "by-host", "Match host sees the HostName obtained so far")
        #expect(found.portNumber == 2201, "originalhost and the user so far")
        #expect(found.identityFiles.isEmpty, "Match exec is not run")
        #expect(found.notes == ["~/.ssh/config line 7: Match exec test -e /tmp/x is not evaluated by eSSH; "
                                + "the lines of this Match block were skipped."])
        let other = try lookup("zzz", text)
        #expect(other.user == nil && other.portNumber == 2222, "Match all applies to every name")
    }

    @Test func theFirstProxyJumpOrProxyCommandWinsAndNoneMeansDirect() throws {
        let text = """
            Host inner
                ProxyJump bastion
            Host direct
                ProxyJump none
            Host *
                ProxyCommand ssh -W %h:%p gate
            """
        let inner = try lookup("inner", text)
        #expect(inner.proxy == .init(keyword: "ProxyJump", text: "bastion", location: .init(file: top, line: 2)))
        #expect(try lookup("direct", text).proxy == nil, "none obtained first: no proxy")
        #expect(try lookup("other", text).proxy?.text == "ssh -W %h:%p gate")
    }

    /// What `ssh -N NAME` would set up: every forward line that applies, wildcards and Match blocks included; none
    /// after a ClearAllForwardings yes (its line said).
    @Test func forwardLinesAreLookedUpAndClearAllForwardingsClearsThem() throws {
        let text = """
            Host tun
                LocalForward 8080 db:80
            Match originalhost tun
                DynamicForward 1080
            Host *
                RemoteForward 9000 localhost:3000
            Host shut
                ClearAllForwardings yes
            """
        let found = try lookup("tun", text)
        #expect(found.forwards.map(\.text) == ["LocalForward 8080 db:80", "DynamicForward 1080",
                                               "RemoteForward 9000 localhost:3000"])
        #expect(found.forwards.map(\.location.line) == [2, 4, 6])
        #expect(found.isEmpty, "forward lines are not connection values")
        let shut = try lookup("shut", text)
        #expect(shut.forwards.isEmpty && shut.forwardsClearedBy == .init(file: top, line: 8))
    }

    @Test func aBadPortIsKeptAsWrittenForTheCallerToRefuse() throws {
        let found = try lookup("x", "Host x\n  Port 99999\n")
        #expect(found.port?.text == "99999" && found.portNumber == nil)
    }

    @Test func noFileIsNoLookupAndAnIncludeLoopIsAnError() throws {
        let reader = SSHConfigReader(home: "/home/u", localUser: "u", source: Files(files: [:]))
        #expect(try reader.lookup("x", path: top) == nil)
        let loop = SSHConfigReader(home: "/home/u", localUser: "u",
                                   source: Files(files: [top: "Include ~/.ssh/config\n"]))
        #expect(throws: InventoryError.self) { try loop.lookup("x", path: top) }
    }

    @Test func severalNamesAtOnceAgreeWithOneAtATime() throws {
        var text = "Host *\n  User everyone\n"
        for i in 0..<200 { text += "Host h\(i)\n  HostName 10.0.\(i / 256).\(i % 256)\n  Port \(1000 + i)\n" }
        text += "Host h1?\n  ProxyJump gate\n"
        let names = (0..<200).map { "h\($0)" } + ["nope"]
        let reader = SSHConfigReader(home: "/home/u", localUser: "u", source: Files(files: [top: text]))
        let together = try #require(try reader.lookup(names, path: top))
        for (i, name) in names.enumerated() {
            #expect(together[i] == (try reader.lookup(name, text: text, file: top)))
        }
        #expect(together[12].proxy?.text == "gate" && together[12].portNumber == 1012)
        #expect(together[200].user?.text == "everyone")
    }
}
