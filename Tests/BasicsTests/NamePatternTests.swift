import Basics
import Testing

@Suite struct NamePatternTests {
    @Test func aZeroPaddedRangeStandsForEachNameAtItsWidth() throws {
        let pattern = try NamePattern(parsing: "web[01-03]")
        #expect(try pattern.expanded() == ["web01", "web02", "web03"])
        #expect(pattern.matches("web02") && pattern.matches("WEB03"))
        #expect(!pattern.matches("web2") && !pattern.matches("web04") && !pattern.matches("web002"))
    }

    @Test func anUnpaddedRangeGrowsInWidthAsPdshDoes() throws {
        let pattern = try NamePattern(parsing: "n[8-10]")
        #expect(try pattern.expanded() == ["n8", "n9", "n10"])
        #expect(pattern.matches("n9") && pattern.matches("n10") && !pattern.matches("n09"))
    }

    @Test func listsRangesAndSeveralBracketsMultiply() throws {
        #expect(try NamePattern(parsing: "db[1,3,5-6]").expanded() == ["db1", "db3", "db5", "db6"])
        #expect(try NamePattern(parsing: "r[1-2]-n[01-02].lab").expanded()
                == ["r1-n01.lab", "r1-n02.lab", "r2-n01.lab", "r2-n02.lab"])
        #expect(try NamePattern(parsing: "root@web[1-2]:2222").expanded() == ["root@web1:2222", "root@web2:2222"])
    }

    @Test func globsMatchNamesButListNothing() throws {
        let star = try NamePattern(parsing: "db*")
        #expect(star.matches("db") && star.matches("db-primary") && !star.matches("xdb"))
        #expect(try star.expanded() == nil)
        let one = try NamePattern(parsing: "node0?")
        #expect(one.matches("node01") && one.matches("node0a") && !one.matches("node010"))
        let both = try NamePattern(parsing: "*-[01-02]")
        #expect(both.matches("eu-01") && !both.matches("eu-03"))
    }

    @Test func anIPv6AddressInBracketsIsTextNotARange() throws {
        let pattern = try NamePattern(parsing: "[::1]:2222")
        #expect(pattern.isLiteral && pattern.matches("[::1]:2222"))
        #expect(try pattern.expanded() == ["[::1]:2222"])
        #expect(try NamePattern(parsing: "admin@[2001:db8::1]").isLiteral)
        #expect(try NamePattern(parsing: "odd]").isLiteral && NamePattern(parsing: "[::1").isLiteral)
    }

    @Test func malformedRangesSayHowTheyAreWritten() {
        for bad in ["web[", "web[]", "web[a-c]", "web[3-1]", "web[1-2-3]", "web[1,,2]", "web[1-09]"] {
            #expect(throws: NamePattern.Problem.self, "\(bad)") { try NamePattern(parsing: bad) }
        }
        do {
            _ = try NamePattern(parsing: "web[20-01]")
        } catch {
            #expect(error.reason == "[20-01] goes down from 20 to 01; a range is written [01-20] or [1,3,5-7]")
        }
    }

    @Test func aRangeTooLargeToListIsRefused() throws {
        let pattern = try NamePattern(parsing: "h[0-99999]-[0-9]")
        #expect(throws: NamePattern.Problem.self) { try pattern.expanded() }
        #expect(pattern.matches("h12345-7"))
    }

    @Test func aLiteralIsItsTextBracketsAndAll() throws {
        let literal = NamePattern(literal: "odd[1]")
        #expect(literal.isLiteral && literal.matches("ODD[1]") && !literal.matches("odd1"))
        #expect(try literal.expanded() == ["odd[1]"])
    }
}
