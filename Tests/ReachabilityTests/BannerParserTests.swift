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

    @Test func anotherProtocolsLineIsNotSSH() {
        #expect(BannerParser.verdict(bytes("220 mail ESMTP\r\n"), ended: false) == .notSSH("220 mail ESMTP"))
    }

    @Test func aClosedConnectionWithNothingIsNotSSH() {
        #expect(BannerParser.verdict([], ended: true) == .notSSH(""))
    }

    @Test func anOverlongLineWithoutEndIsNotSSH() {
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 300)
        guard case .notSSH(let text) = BannerParser.verdict(long, ended: false) else {
            Issue.record("expected notSSH")
            return
        }
        #expect(text.count == BannerParser.maxLine)
    }

    @Test func bannersKeepPrintableASCIIOnly() {
        let raw: [UInt8] = Array("SSH-2.0-x".utf8) + [0x1B, 0x5B, 0x32, 0x4A, 0x07, 0xC3, 0xA9] + Array("y\r\n".utf8)
        #expect(BannerParser.verdict(raw, ended: false) == .ssh("SSH-2.0-x[2Jy"))
    }
}
