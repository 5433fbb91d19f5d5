import Testing
@testable import Reachability

@Suite struct BannerParserTests {
    private func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    @Test func anSSHLineIsOnlineWithoutItsLineEnd() {
        #expect(BannerParser.verdict(bytes("SSH-2.0-OpenSSH_9.2p1 Debian\r\n"), ended: false)
                == .ssh("SSH-2.0-OpenSSH_9.2p1 Debian"))
    }

    @Test func aPartialLineWaitsForMore() {
        #expect(BannerParser.verdict(bytes("SSH-2.0-Open"), ended: false) == .needMore)
    }

    /// RFC 4253 §4.2: other lines may come first; a server that sends only such lines and waits (an SMTP server)
    /// is judged when it closes or the check's time is up (not SSH, with its first line).
    @Test func otherLinesMayComeBeforeTheIdentification() {
        #expect(BannerParser.verdict(bytes("Welcome\r\nauthorised use only\r\nSSH-2.0-OpenSSH_9.2\r\n"), ended: false)
                == .ssh("SSH-2.0-OpenSSH_9.2"))
        #expect(BannerParser.verdict(bytes("220 mail ESMTP\r\n"), ended: false) == .needMore)
        #expect(BannerParser.verdict(bytes("220 mail ESMTP\r\n"), ended: true) == .notSSH("220 mail ESMTP"))
    }

    @Test func tooManyLinesOrTooMuchTextIsNotSSH() {
        let lines = String(repeating: "x\n", count: 1025)
        #expect(BannerParser.verdict(bytes(lines), ended: false) == .notSSH("x"))
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: 70_000)
        guard case .notSSH = BannerParser.verdict(text, ended: false) else { Issue.record("expected notSSH"); return }
    }

    @Test func aClosedConnectionWithNothingIsNotSSH() {
        #expect(BannerParser.verdict([], ended: true) == .notSSH(""))
    }

    @Test func anOverlongLineWithoutEndIsNotSSH() {
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 9000)
        guard case .notSSH(let text) = BannerParser.verdict(long, ended: false) else {
            Issue.record("expected notSSH")
            return
        }
        #expect(text.count == BannerParser.maxLine)
    }

    /// Found by `make fuzz` (banner): an "SSH-" line of 300 bytes was SSH when its end came in the same read and not
    /// SSH when it came in two; a line longer than 255 bytes is now not SSH either way.
    @Test func anOverlongLineIsNotSSHHoweverItArrives() {
        let line = Array("SSH-2.0-".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 292) + Array("\r\n".utf8)
        guard case .notSSH = BannerParser.verdict(line, ended: false) else {
            Issue.record("a 300-byte line in one read was taken for SSH")
            return
        }
        guard case .notSSH = BannerParser.verdict(Array(line.prefix(256)), ended: false) else {
            Issue.record("its first 256 bytes were not refused")
            return
        }
        let longest = Array("SSH-2.0-".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 247) + [UInt8(ascii: "\n")]
        #expect(BannerParser.verdict(longest, ended: false) == .ssh("SSH-2.0-" + String(repeating: "x", count: 247)))
    }

    @Test func bannersKeepPrintableASCIIOnly() {
        let raw: [UInt8] = Array("SSH-2.0-x".utf8) + [0x1B, 0x5B, 0x32, 0x4A, 0x07, 0xC3, 0xA9] + Array("y\r\n".utf8)
        #expect(BannerParser.verdict(raw, ended: false) == .ssh("SSH-2.0-x[2Jy"))
    }
}
