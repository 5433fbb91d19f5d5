import Testing
import TUIKit

@Suite struct ScrollbackBufferTests {
    @Test func keepsOnlyTheNewestLinesAndNumbersThemStably() {
        var scrollback = ScrollbackBuffer(maxLines: 100)
        for n in 0..<10_000 { scrollback.append("line \(n)\n") }
        #expect(scrollback.count == 100)
        #expect(scrollback.firstLine == 9_900)
        #expect(scrollback[9_900] == "line 9900")
        #expect(scrollback[9_999] == "line 9999")
        #expect(scrollback[9_899] == nil)
        #expect(scrollback.endLine == 10_000)
    }

    @Test func aLineArrivingInPiecesIsOneLine() {
        var scrollback = ScrollbackBuffer(maxLines: 10)
        scrollback.append("hel")
        #expect(scrollback.count == 1)
        #expect(scrollback[0] == "hel")
        scrollback.append("lo\nwor")
        scrollback.append("ld\n")
        #expect(scrollback.count == 2)
        #expect(scrollback[0] == "hello")
        #expect(scrollback[1] == "world")
    }

    @Test func aCarriageReturnWritesOverTheOpenLineAsATerminalDoes() {
        var buffer = ScrollbackBuffer(maxLines: 10)
        buffer.append("$ wget\n")
        buffer.append(" 10% [=>    ]\r")
        #expect(buffer.count == 2)
        #expect(buffer[1] == " 10% [=>    ]")
        buffer.append(" 50% [===>")
        #expect(buffer[1] == " 50% [===>  ]", "later text writes over the old, the rest stays")
        buffer.append("  ]\r100% [======]\n")
        #expect(buffer.count == 2)
        #expect(buffer[1] == "100% [======]")
        buffer.append("b\rxy\rz\n")
        #expect(buffer[2] == "zy", "CR twice: each return writes over what the line shows then")
        buffer.append("\rq\n")
        #expect(buffer[3] == "q")
        #expect(buffer.search("50%", from: .init(line: 0, byteOffset: 0), direction: .forward) == nil)
    }

    @Test func endlessOutputWithoutNewlinesStaysBounded() {
        var scrollback = ScrollbackBuffer(maxLines: 5, maxLineBytes: 100)
        for _ in 0..<1_000 { scrollback.append(String(repeating: "日", count: 50)) }
        #expect(scrollback.count <= 6)
        for n in scrollback.firstLine..<scrollback.endLine {
            let line = scrollback[n]!
            #expect(line.utf8.count <= 100)
            #expect(line.allSatisfy { $0 == "日" })
        }
    }

    @Test func searchFindsForwardAndBackwardAndWrapsAround() {
        var scrollback = ScrollbackBuffer(maxLines: 100)
        for line in ["alpha", "beta ERROR one", "gamma", "delta error two", "epsilon"] { scrollback.appendLine(line) }
        let first = scrollback.search("error", from: .init(line: 0, byteOffset: 0), direction: .forward)
        #expect(first == SearchMatch(line: 1, byteRange: 5..<10))
        let second = scrollback.search("error", from: first!.after, direction: .forward)
        #expect(second?.line == 3)
        let wrapped = scrollback.search("error", from: second!.after, direction: .forward)
        #expect(wrapped?.line == 1)
        let back = scrollback.search("error", from: second!.before, direction: .backward)
        #expect(back?.line == 1)
        let backWrapped = scrollback.search("error", from: back!.before, direction: .backward)
        #expect(backWrapped?.line == 3)
        #expect(scrollback.search("ERROR", from: .init(line: 0, byteOffset: 0), direction: .forward,
                                  caseSensitive: true)?.line == 1)
        #expect(scrollback.search("missing", from: .init(line: 0, byteOffset: 0), direction: .forward) == nil)
    }

    @Test func matchesInALineAreByteRanges() {
        var scrollback = ScrollbackBuffer(maxLines: 10)
        scrollback.appendLine("日本 ab AB ab")
        #expect(scrollback.matches(of: "ab", inLine: 0) == [7..<9, 10..<12, 13..<15])
    }

    @Test func searchSkipsLinesThatWereDropped() {
        var scrollback = ScrollbackBuffer(maxLines: 3)
        for n in 0..<10 { scrollback.appendLine("x\(n)") }
        let match = scrollback.search("x", from: .init(line: 0, byteOffset: 0), direction: .forward)
        #expect(match?.line == 7)
    }
}
