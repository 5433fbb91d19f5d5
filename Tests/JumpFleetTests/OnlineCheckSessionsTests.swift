import Testing
@testable import Operations
import SSH

@Suite struct OnlineCheckSessionsTests {
    @Test func oneBastionSessionPerSoManyServersUpToTheCap() {
        // One open at a time per session (a libssh2 without patch 0003): a session per 8 servers.
        #expect(OnlineCheck.sessions(for: 1, cap: 64, perSession: 8) == 1)
        #expect(OnlineCheck.sessions(for: 8, cap: 64, perSession: 8) == 1)
        #expect(OnlineCheck.sessions(for: 9, cap: 64, perSession: 8) == 2)
        #expect(OnlineCheck.sessions(for: 100, cap: 64, perSession: 8) == 13)
        #expect(OnlineCheck.sessions(for: 2000, cap: 64, perSession: 8) == 64)
        #expect(OnlineCheck.sessions(for: 2000, cap: 16, perSession: 8) == 16)
        #expect(OnlineCheck.sessions(for: 3, cap: 1, perSession: 8) == 1)
        // Opens side by side: a session per 500.
        #expect(OnlineCheck.sessions(for: 500, cap: 4, perSession: 500) == 1)
        #expect(OnlineCheck.sessions(for: 2000, cap: 4, perSession: 500) == 4)
        #expect(OnlineCheck.sessions(for: 20000, cap: 4, perSession: 500) == 4)
    }

    @Test func theDefaultsFollowTheLibrary() {
        if ChannelRelay.opensSideBySide {
            #expect(OnlineCheck.defaultSessionsPerBastion == 4)
            #expect(OnlineCheck.sessions(for: 2000, cap: OnlineCheck.defaultSessionsPerBastion) == 2)
        } else {
            #expect(OnlineCheck.defaultSessionsPerBastion == 64)
            #expect(OnlineCheck.sessions(for: 2000, cap: OnlineCheck.defaultSessionsPerBastion) == 64)
        }
    }
}
