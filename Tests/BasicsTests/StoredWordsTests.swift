import Basics
import Testing

/// The raw values of the enums eSSH stores and prints are a file format and an output format: they never change.
@Suite struct StoredWordsTests {
    @Test func checkStatusesAreTheWordsStoredAndPrinted() {
        #expect(CheckStatus.allCases.map(\.rawValue) == ["online", "not-ssh", "refused", "timeout", "unreachable",
                                                         "dns-error"])
    }

    @Test func serverSystemsAreTheWordsStoredAndAcceptedByOS() {
        #expect(ServerOS.allCases.map(\.rawValue) == ["auto", "linux", "macos", "bsd", "windows"])
        #expect(ServerOS.detectable == [.linux, .macos, .bsd, .windows], "every system but auto")
    }
}
