import Foundation
import Mail
import TestSupport
import Testing

@Suite struct QuotedPrintableTests {
    func lines(_ encoded: [UInt8]) -> [ArraySlice<UInt8>] {
        encoded.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    }

    @Test func plainTextStaysReadable() {
        #expect(QuotedPrintable.encode(Array("hello world\nsecond line\n".utf8)) == Array("hello world\nsecond line\n".utf8))
    }

    @Test func specialBytesAreEscaped() {
        #expect(String(decoding: QuotedPrintable.encode(Array("a=b ü\r\nend \n".utf8)), as: UTF8.self)
                == "a=3Db =C3=BC=0D\nend=20\n")
    }

    @Test func fromAtALineStartIsEncodedSoMboxDeliveryCannotQuoteIt() {
        let text = Array("From here\nx From y\nFrom\nFromage\n".utf8)
        #expect(String(decoding: QuotedPrintable.encode(text), as: UTF8.self) == "=46rom here\nx From y\nFrom\nFromage\n")
        // A soft break that puts "From " at the start of a line.
        let long = Array((String(repeating: "a", count: 75) + "From the middle\n").utf8)
        let encoded = QuotedPrintable.encode(long)
        #expect(lines(encoded).filter { $0.starts(with: "From ".utf8) }.isEmpty)
        #expect(String(decoding: encoded, as: UTF8.self).contains("=\n=46rom the middle"))
        #expect(QuotedPrintable.decode(encoded) == long)
    }

    @Test func longLinesAreSoftBrokenAt76AndRoundTrip() {
        for length in [74, 75, 76, 77, 150, 1000] {
            for filler in ["a", "=", "é"] {
                let text = Array(String(repeating: filler, count: length).utf8) + [0x0A]
                let encoded = QuotedPrintable.encode(text)
                for line in lines(encoded) { #expect(line.count <= 76, "\(length) × \(filler)") }
                #expect(QuotedPrintable.decode(encoded) == text)
            }
        }
    }

    @Test func everyByteRoundTripsIncludingInvalidUTF8() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let bytes = (0..<Int.random(in: 0...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = QuotedPrintable.encode(bytes)
            #expect(encoded.allSatisfy { $0 == 0x0A || $0 == 0x09 || (0x20...0x7E).contains($0) })
            for line in lines(encoded) { #expect(line.count <= 76) }
            #expect(QuotedPrintable.decode(encoded) == bytes)
        }
    }

    @Test func pythonDecodesOurEncodingToTheSameBytes() throws {
        let bytes = Array("tab\tand space at end \nlong ".utf8) + Array(repeating: 0xE9, count: 100) + [0x0A, 0x3D]
        let encoded = QuotedPrintable.encode(bytes)
        let result = try Spawn.run("/usr/bin/python3", ["-c", "import sys,quopri; sys.stdout.buffer.write(quopri.decodestring(sys.stdin.buffer.read()))"],
                                   stdin: Data(encoded))
        #expect(Array(result.stdout) == bytes)
    }

    @Test func decodingDropsTransportWhitespaceAndKeepsMalformedEscapes() {
        #expect(QuotedPrintable.decode(Array("a  \nb=\nc =ZZ=4".utf8)) == Array("a\nbc =ZZ=4".utf8))
    }
}
