import Fleet
import Foundation
import Testing

@Suite struct FleetGroupingTests {
    func result(_ name: String, _ status: FleetStatus, exit: Int32? = nil, out: String = "", err: String = "",
                error: String? = nil) -> FleetResult {
        FleetResult(name: name, status: status, exitStatus: exit, duration: 0.25, stdout: Array(out.utf8),
                    stderr: Array(err.utf8), error: error)
    }

    @Test func identicalOutputsFormOneGroupInFirstSeenOrder() {
        let results = [
            result("web1", .ok, exit: 0, out: "Linux\n"),
            result("db1", .failed, exit: 1, err: "no\n"),
            result("web2", .ok, exit: 0, out: "Linux\n"),
            result("web3", .ok, exit: 0, out: "Linux\n"),
        ]
        let groups = FleetGroup.group(results)
        #expect(groups.map(\.names) == [["web1", "web2", "web3"], ["db1"]])
        #expect(groups[0].members == [0, 2, 3])
    }

    @Test func sameOutputWithAnotherExitStatusOrStderrIsAnotherGroup() {
        let groups = FleetGroup.group([
            result("a", .ok, exit: 0, out: "x\n"),
            result("b", .failed, exit: 2, out: "x\n"),
            result("c", .ok, exit: 0, out: "x\n", err: "warn\n"),
        ])
        #expect(groups.count == 3)
    }

    @Test func unfinishedResultsAreLeftOutAndErrorsGroupByTheirSentence() {
        let groups = FleetGroup.group([
            result("a", .running),
            result("b", .unreachable, error: "refused"),
            result("c", .unreachable, error: "refused"),
            result("d", .waiting),
        ])
        #expect(groups.map(\.names) == [["b", "c"]])
    }

    /// dshbak -c's habit: twenty numbered servers with one output are one short heading, not twenty names.
    @Test func aGroupHeadingFoldsNumberedNamesIntoRanges() {
        var results = (1...20).map { result("web" + ($0 < 10 ? "0\($0)" : "\($0)"), .ok, exit: 0, out: "up\n") }
        results += [result("db1", .ok, exit: 0, out: "up\n"), result("db2", .ok, exit: 0, out: "up\n"),
                    result("mail", .ok, exit: 0, out: "up\n")]
        let group = FleetGroup.group(results)[0]
        #expect(FleetReport.heading(group) == "== web[01-20], db[1-2], mail (23 servers) · ok (exit 0)")
    }

    @Test func theGroupedTextShowsEachOutputOnceWithItsServers() {
        let text = FleetReport.grouped([
            result("web1", .ok, exit: 0, out: "Linux\n"),
            result("web2", .ok, exit: 0, out: "Linux\n"),
            result("db1", .failed, exit: 1, out: "half", err: "bad\n"),
            result("down", .unreachable, error: "down refused the connection."),
        ])
        #expect(text == """
            == web[1-2] (2 servers) · ok (exit 0)
            Linux
            == db1 · failed (exit 1)
            half
            stderr: bad
            == down · unreachable
            essh: down refused the connection.

            """)
    }

    @Test func theReportHasTheSummaryAndOneRowPerServer() {
        let text = FleetReport.text(command: "uname", results: [
            result("web1", .ok, exit: 0, out: "Linux\n"),
            result("down", .timedOut, error: "No result within 2 s (still connecting)."),
        ], elapsed: 2.04)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Command: uname")
        #expect(lines[1] == "2 servers: 1 ok, 1 timed-out in 2.0 s")
        #expect(lines[3] == "SERVER  STATUS       EXIT  TIME")
        #expect(lines[4] == "web1    ok           0     0.2 s")
        #expect(lines[5] == "down    timed-out    -     0.2 s")
        #expect(text.hasSuffix("== down · timed-out\nessh: No result within 2 s (still connecting).\n"))
    }

    @Test func summaryCountsEveryStatus() {
        let summary = FleetSummary([
            result("a", .ok, exit: 0), result("b", .ok, exit: 0), result("c", .failed, exit: 1),
            result("d", .unreachable), result("e", .cancelled),
        ])
        #expect(summary.line(elapsed: 1.234) == "5 servers: 2 ok, 1 failed, 1 unreachable, 1 cancelled in 1.2 s")
        #expect(!summary.allOK)
        #expect(FleetSummary([result("a", .ok, exit: 0)]).allOK)
    }

    @Test func summaryAndTableUseOneWordPerStatusAndCutNone() {
        let results = [
            result("a", .ok, exit: 0), result("b", .hostKeyUnknown, error: "unknown"),
            result("c", .authFailed, error: "denied"), result("d", .timedOut), result("e", .dnsError),
        ]
        #expect(FleetSummary(results).line()
            == "5 servers: 1 ok, 1 timed-out, 1 dns-error, 1 host-key-unknown, 1 auth-failed")
        let table = FleetReport.text(command: "x", results: results, elapsed: nil).split(separator: "\n")
        #expect(table[2] == "SERVER  STATUS            EXIT  TIME")
        #expect(table[4].hasPrefix("b       host-key-unknown  -     "))
    }

    @Test func jsonHasEveryKeyWithNullsAndReplacesInvalidUTF8() throws {
        var bad = result("b", .unreachable, error: "refused")
        bad.duration = 0.0124
        var odd = result("a", .ok, exit: 0)
        odd.stdout = [0x66, 0xFF, 0x0A]
        let json = FleetJSON.encode([odd, bad])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let items = try #require(object["results"] as? [[String: Any]])
        #expect(items.count == 2)
        #expect(Set(items[1].keys) == ["name", "status", "exit_status", "duration_ms", "stdout", "stderr", "error"])
        #expect(items[0]["stdout"] as? String == "f\u{FFFD}\n")
        #expect(items[0]["error"] is NSNull && items[1]["exit_status"] is NSNull)
        #expect(items[1]["status"] as? String == "unreachable" && items[1]["duration_ms"] as? Int == 12)
    }

    @Test func groupingOneResultAtATimeGivesTheSameGroups() {
        let results = (0..<30).map { i in
            result("s\(i)", i % 5 == 0 ? .failed : .ok, exit: i % 5 == 0 ? 1 : 0, out: ["x\n", "y\n", "x\n"][i % 3])
        }
        var grouper = FleetGrouper()
        var added: [FleetResult] = results.map { FleetResult(name: $0.name, status: .running) }
        for i in (0..<30).reversed() {
            grouper.add(results[i], at: i)
            added[i] = results[i]
            #expect(grouper.groups.map(\.group) == FleetGroup.group(added))
        }
    }

    @Test func jsonKeysComeInTheContractsOrder() {
        var done = result("web1", .failed, exit: 3)
        done.duration = 0.5
        done.stdout = Array("out\n".utf8)
        let json = FleetJSON.encode([done, result("web2", .unreachable, error: "refused")])
        #expect(json == #"{"results":[{"name":"web1","status":"failed","exit_status":3,"duration_ms":500,"#
                + #""stdout":"out\n","stderr":"","error":null},{"name":"web2","status":"unreachable","#
                + #""exit_status":null,"duration_ms":250,"stdout":"","stderr":"","error":"refused"}]}"#)
    }

    @Test func jsonStringsRoundTripQuotesBackslashesAndControlCharacters() throws {
        let text = "a\"b\\c\u{1B}[2J\td\re\u{7F}/é\u{2028}"
        var item = result("we\"b", .failed, exit: 1, out: text, err: "x\n", error: text)
        item.duration = 0
        let json = FleetJSON.encode([item])
        #expect(!json.contains("\u{1B}"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let back = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(back["name"] as? String == "we\"b" && back["stdout"] as? String == text && back["error"] as? String == text)
    }
}
