import Testing
import Transfer

/// --resume never appends blindly; partial names find their own copy and only it.
@Suite struct ResumeAndPartialTests {
    @Test func aPartialNoLongerThanTheSourceIsACandidateToProve() {
        #expect(ResumeDecision.decide(partialSize: nil, sourceSize: 300_000) == .fresh)
        #expect(ResumeDecision.decide(partialSize: 0, sourceSize: 300_000) == .fresh)
        #expect(ResumeDecision.decide(partialSize: 100, sourceSize: 300_000) == .append(from: 100))
        #expect(ResumeDecision.decide(partialSize: 300_000, sourceSize: 300_000) == .complete)
        #expect(ResumeDecision.decide(partialSize: 300_001, sourceSize: 300_000) == .restart(
            reason: "the partial copy (300,001 bytes) is longer than the source (300,000 bytes): the source changed"))
    }

    @Test func onlyAProvenPrefixIsKept() {
        let candidate = ResumeDecision.append(from: 200_000)
        #expect(ResumeDecision.proven(candidate, differsAt: nil, by: .sha256) == candidate)
        #expect(ResumeDecision.proven(.complete, differsAt: nil, by: .readBack) == .complete)
        // A byte changed near the start is found, wherever it is (not only in the last 64 KiB).
        #expect(ResumeDecision.proven(candidate, differsAt: 2, by: .readBack) == .restart(
            reason: "the partial copy differs from the source at byte 2"))
        #expect(ResumeDecision.proven(candidate, differsAt: 0, by: .sha256) == .restart(
            reason: "the partial copy differs from the source's first bytes (their sha256 digests differ)"))
    }

    @Test func freshPartialNamesAreUnpredictableButStillPartials() {
        let name = Array("app.conf".utf8)
        let a = PartialName.fresh(for: name), b = PartialName.fresh(for: name)
        #expect(a != b)
        #expect(PartialName.isPartial(a, of: name) && PartialName.isPartial(b, of: name))
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
