import Testing
import Transfer

/// --resume never appends blindly; partial names find their own copy and only it.
@Suite struct ResumeAndPartialTests {
    private let source: [UInt8] = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }

    private func decide(partial: [UInt8]?) -> ResumeDecision {
        guard let partial else {
            return ResumeDecision.decide(partialSize: nil, sourceSize: Int64(source.count), partialTail: [],
                                         sourceTail: [])
        }
        let window = ResumeDecision.window(partialSize: Int64(partial.count))
        let range = Int(window.lowerBound)..<Int(window.upperBound)
        return ResumeDecision.decide(partialSize: Int64(partial.count), sourceSize: Int64(source.count),
                                     partialTail: Array(partial[range]),
                                     sourceTail: Array(source[range.clamped(to: 0..<source.count)]))
    }

    @Test func aPrefixIsContinuedAndAWholeCopyIsComplete() {
        #expect(decide(partial: nil) == .fresh)
        #expect(decide(partial: []) == .fresh)
        #expect(decide(partial: Array(source[..<100])) == .append(from: 100))
        #expect(decide(partial: Array(source[..<200_000])) == .append(from: 200_000))
        #expect(decide(partial: source) == .complete)
        #expect(ResumeDecision.window(partialSize: 200_000) == (200_000 - 65_536)..<200_000)
        #expect(ResumeDecision.window(partialSize: 10) == 0..<10)
    }

    @Test func aDifferentOrLongerPartialStartsOver() {
        var changed = Array(source[..<200_000])
        changed[199_000] ^= 1
        #expect(decide(partial: changed) == .restart(reason: "the partial copy differs from the source at byte 199,001"))
        #expect(decide(partial: source + [1]) == .restart(
            reason: "the partial copy (300,001 bytes) is longer than the source (300,000 bytes): the source changed"))
        // A short read of the partial is not taken for agreement.
        #expect(ResumeDecision.decide(partialSize: 1_000, sourceSize: 2_000, partialTail: [1, 2],
                                      sourceTail: [1, 2]) == .restart(
            reason: "the partial copy could not be read back (2 of 1000 bytes)"))
    }

    @Test func partialNamesAreTheSourcesOwn() {
        let name = Array("app.conf".utf8)
        let a = PartialName.name(for: name, sourcePath: Array("/srv/app.conf".utf8), size: 10, modified: 1_700_000_000)
        let again = PartialName.name(for: name, sourcePath: Array("/srv/app.conf".utf8), size: 10, modified: 1_700_000_000)
        let newer = PartialName.name(for: name, sourcePath: Array("/srv/app.conf".utf8), size: 10, modified: 1_700_000_001)
        #expect(a == again && a != newer)
        let text = String(decoding: a, as: UTF8.self)
        #expect(text.hasPrefix(".app.conf.essh-") && text.hasSuffix(".part") && text.count == ".app.conf.essh-".count + 8 + 5)
        #expect(PartialName.isPartial(a, of: name) && PartialName.isPartial(newer, of: name))
        #expect(!PartialName.isPartial(a, of: Array("app.con".utf8)))
        #expect(!PartialName.isPartial(Array(".app.conf.essh-zzzzzzzz.part".utf8), of: name))
        #expect(!PartialName.isPartial(name, of: name))
    }
}
