import Testing
@testable import SSH

@Suite struct SSHLibraryTests {
    @Test func reportsTheRunTimeLibssh2Version() throws {
        try SSHLibrary.ensureInitialised()
        let (major, minor, _) = SSHLibrary.versionNumber
        #expect(major >= 1)
        #expect(SSHLibrary.version.hasPrefix("\(major).\(minor)"))
        #expect(SSHLibrary.supportsRSASHA2 == (major > 1 || minor >= 11))
    }
}
