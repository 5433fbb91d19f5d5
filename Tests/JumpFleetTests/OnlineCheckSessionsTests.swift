import Testing
@testable import Operations

@Suite struct OnlineCheckSessionsTests {
    @Test func oneBastionSessionPerEightServersUpToTheCap() {
        #expect(OnlineCheck.sessions(for: 1, cap: 64) == 1)
        #expect(OnlineCheck.sessions(for: 8, cap: 64) == 1)
        #expect(OnlineCheck.sessions(for: 9, cap: 64) == 2)
        #expect(OnlineCheck.sessions(for: 100, cap: 64) == 13)
        #expect(OnlineCheck.sessions(for: 2000, cap: 64) == 64)
        #expect(OnlineCheck.sessions(for: 2000, cap: 16) == 16)
        #expect(OnlineCheck.sessions(for: 3, cap: 1) == 1)
    }
}
