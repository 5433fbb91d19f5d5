import Basics
import Testing

@Suite struct NameFoldingTests {
    @Test func consecutiveNamesFoldToOneRangeAsDshbakDoes() {
        let names = (1...20).map { "web" + ($0 < 10 ? "0" : "") + String($0) }
        #expect(NameFolding.fold(names) == ["web[01-20]"])
        #expect(NameFolding.fold(["web1", "web2", "web5", "web6", "web7"]) == ["web[1-2,5-7]"])
        #expect(NameFolding.fold(["n9", "n10", "n11"]) == ["n[9-11]"])
    }

    @Test func differentNamesStayApartInTheOrderTheyCame() {
        #expect(NameFolding.fold(["db1", "web02", "db2", "web01", "mail"]) == ["db[1-2]", "web[01-02]", "mail"])
        #expect(NameFolding.fold(["alpha"]) == ["alpha"])
        #expect(NameFolding.fold(["web1", "web1"]) == ["web1"])
        #expect(NameFolding.fold([]) == [])
    }

    @Test func paddingIsKeptAndNeverMixed() {
        #expect(NameFolding.fold(["web1", "web01", "web02"]) == ["web1", "web[01-02]"])
        #expect(NameFolding.fold(["h007", "h008", "h7"]) == ["h[007-008]", "h7"])
    }

    @Test func foldsAlongTheRunThatDiffers() {
        #expect(NameFolding.fold(["web01.lab", "web02.lab", "web03.lab"]) == ["web[01-03].lab"])
        #expect(NameFolding.fold(["root@web1:22", "root@web2:22"]) == ["root@web[1-2]:22"])
        #expect(NameFolding.fold(["r1-n01", "r1-n02", "r2-n01"]) == ["r1-n[01-02]", "r2-n01"])
    }

    @Test func namesThatWouldReadAsPatternsAreLeftAlone() {
        #expect(NameFolding.fold(["[::1]:2201", "[::1]:2202"]) == ["[::1]:2201", "[::1]:2202"])
        #expect(NameFolding.fold(["a,1", "a,2"]) == ["a,1", "a,2"])
    }

    /// What is folded reads back, through the selector's pattern, as the same names.
    @Test func foldedNamesExpandBackToTheSameNames() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let prefixes = ["web", "db", "n", "r1-n"]
            let names = Array(Set((0..<Int.random(in: 1...30, using: &generator)).map { _ -> String in
                let value = Int.random(in: 0...120, using: &generator)
                let padded = Bool.random(using: &generator)
                return prefixes.randomElement(using: &generator)! + NameFolding.digits(value, width: padded ? 3 : 0)
            }))
            let folded = NameFolding.fold(names)
            let back = try folded.flatMap { try NamePattern(parsing: $0).expanded() ?? [] }
            #expect(Set(back) == Set(names) && back.count == names.count, "\(names) → \(folded)")
        }
    }
}
