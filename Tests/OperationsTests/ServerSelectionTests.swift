import Foundation
import Inventory
import Operations
import Testing

@Suite struct ServerSelectionTests {
    /// web01…web05 (tag web; web05 also tag db), db1, db2 (tag db), mail (tags mail, prod).
    let servers: [Server] = {
        func server(_ name: String, _ tags: [String]) -> Server {
            var server = Server(name: name, host: name + ".lab", auth: .agent)
            server.tags = tags
            return server
        }
        return ["db1", "db2"].map { server($0, ["db"]) } + [server("mail", ["mail", "Prod"])]
            + (1...5).map { server("web0\($0)", $0 == 5 ? ["web", "db"] : ["web"]) }
    }()

    func names(_ words: [String], all: Bool = false, hosts: Bool = false, defaultAll: Bool = false) throws -> [String] {
        let selection = ServerSelection(all: all, selectors: try words.flatMap { try ServerSelector.list($0) })
        return try selection.resolve(servers, hosts: hosts, defaultAll: defaultAll).map(\.name)
    }

    func problem(_ words: [String], hosts: Bool = false, defaultAll: Bool = false) -> SelectionProblem? {
        do {
            _ = try names(words, hosts: hosts, defaultAll: defaultAll)
            return nil
        } catch let problem as SelectionProblem {
            return problem
        } catch {
            return nil
        }
    }

    @Test func severalTagsGiveTheUnionEachServerOnce() throws {
        #expect(try names(["tag:db", "tag:mail"]) == ["db1", "db2", "web05", "mail"])
        #expect(try names(["tag:DB,tag:web"]) == ["db1", "db2", "web05", "web01", "web02", "web03", "web04"])
    }

    @Test func exclusionsRemoveByNameTagOrPattern() throws {
        #expect(try names(["tag:web", "!web03"]) == ["web01", "web02", "web04", "web05"])
        #expect(try names(["tag:web", "!tag:db"]) == ["web01", "web02", "web03", "web04"])
        #expect(try names(["web*", "!web0[2-4]"]) == ["web01", "web05"])
        #expect(try names(["!tag:prod"], defaultAll: true)
                == ["db1", "db2", "web01", "web02", "web03", "web04", "web05"])
    }

    @Test func globsAndRangesPickSavedNames() throws {
        #expect(try names(["db*"]) == ["db1", "db2"])
        #expect(try names(["web0?"]) == ["web01", "web02", "web03", "web04", "web05"])
        #expect(try names(["web[02-03],db[1]"]) == ["web02", "web03", "db1"])
        #expect(try names(["WEB01"]) == ["web01"])
    }

    /// As pdsh's -w: where unsaved hosts are taken, a range is its names, saved or not.
    @Test func aRangeNamesUnsavedHostsWhereHostsAreTaken() throws {
        let picks = try ServerSelection(selectors: try ServerSelector.list("web[04-07]"))
            .resolve(servers, hosts: true, defaultAll: false)
        #expect(picks.map(\.name) == ["web04", "web05", "web06", "web07"])
        #expect(picks[2] == .host("web06"))
        #expect(try names(["web[04-07]"]) == ["web04", "web05"])
        #expect(try names(["admin@box:2222", "[::1]:22"], hosts: true) == ["admin@box:2222", "[::1]:22"])
    }

    @Test func aSelectorThatNamesNothingIsAnErrorNotSilence() {
        #expect(problem(["tag:nosuch"]) == SelectionProblem(.noMatch, "No saved server has the tag 'nosuch'."))
        #expect(problem(["zz*"])?.kind == .noMatch)
        #expect(problem(["web[10-20]"])?.kind == .noMatch)
        #expect(problem(["ghost"])?.message == "No saved server is named 'ghost' (see essh servers list).")
        #expect(problem(["tag:web", "!wbe03"])?.message
                == "'!wbe03' excludes nothing: no saved server or chosen host is named 'wbe03'.")
        #expect(problem(["!web01"])?.kind == .nothingSelected)
        #expect(problem([])?.kind == .nothingSelected)
    }

    /// Exclusions that remove every server picked leave nothing to run on or list: an error naming the exclusion
    /// that emptied it, not a run on no server.
    @Test func exclusionsThatLeaveNothingAreAnError() {
        #expect(problem(["db*", "!tag:db"])
                == SelectionProblem(.noMatch, "'!tag:db' leaves no server: it removes every one the selectors picked."))
        #expect(problem(["db*", "!db1", "!db2"])?.message
                == "'!db2' leaves no server: it removes every one the selectors picked.")
        #expect(problem(["!*"], defaultAll: true)?.kind == .noMatch)
        #expect(problem(["web[06-07]", "!web0?"], hosts: true)?.kind == .noMatch)
    }

    /// An exclusion naming a saved server that the selection did not pick is no typo: it is accepted.
    @Test func anExclusionOfAKnownServerOutsideTheSelectionIsAccepted() throws {
        #expect(try names(["tag:db", "!mail"]) == ["db1", "db2", "web05"])
    }

    @Test func malformedSelectorsSayHowToWriteThem() {
        for bad in ["web[5-1]", "tag:", "!", "!!web1", "web[", "web[a-b]", "n[0-99999999]"] {
            #expect(Self.kind(bad) == .malformed, "\(bad)")
        }
    }

    static func kind(_ word: String) -> SelectionProblem.Kind? {
        do {
            _ = try ServerSelector.list(word)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func wordsSplitAtCommasButNotInsideRanges() {
        #expect(ServerSelector.words("web[1,3],db1, tag:x,,!y") == ["web[1,3]", "db1", "tag:x", "!y"])
        #expect(ServerSelector.words("x@bad host") == ["x@bad host"])
    }

    /// The interface's filter: the same selectors, without errors; exclusions alone keep the rest.
    @Test func theFilterKeepsWhatTheSelectorsPick() throws {
        let filter = ServerSelection(selectors: try ServerSelector.list("tag:db,!web05"))
        #expect(servers.filter(filter.contains).map(\.name) == ["db1", "db2"])
        let rest = ServerSelection(selectors: try ServerSelector.list("!tag:web"))
        #expect(servers.filter(rest.contains).map(\.name) == ["db1", "db2", "mail"])
        #expect(servers.filter(ServerSelection().contains).count == servers.count)
    }

    @Test func oneNameIsOneServerAndAnythingElseIsMany() throws {
        #expect(!ServerSelection(selectors: try ServerSelector.list("web01")).isMany)
        #expect(!ServerSelection(selectors: try ServerSelector.list("[::1]:22")).isMany)
        for many in ["web0?", "tag:db", "a,b", "web[1-2]", "!x"] {
            #expect(ServerSelection(selectors: try ServerSelector.list(many)).isMany, "\(many)")
        }
    }

    @Test func aHostsFileIsOneLiteralHostALineWithComments() throws {
        let text = """
            # the web tier
            web01
            admin@box:2222   # a comment
            [::1]:2200

            odd[1]
            """
        let selectors = try HostsFile.selectors(text, file: "hosts")
        #expect(try ServerSelection(selectors: selectors).resolve(servers, hosts: true, defaultAll: false).map(\.name)
                == ["web01", "admin@box:2222", "[::1]:2200", "odd[1]"])
        #expect(throws: SelectionProblem.self) { try HostsFile.selectors("web01 web02\n", file: "hosts") }
        #expect(throws: SelectionProblem.self) { try HostsFile.selectors("# nothing\n\n", file: "hosts") }
        do {
            _ = try HostsFile.selectors("web01\nweb02 admin\n", file: "h")
        } catch {
            #expect(error.message.hasPrefix("h:2: “web02 admin” is more than one word"))
        }
    }
}
