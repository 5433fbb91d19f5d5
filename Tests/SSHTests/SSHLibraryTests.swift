import Foundation
import Testing
@testable import SSH

@Suite struct SSHLibraryTests {
    @Test func reportsTheRunTimeLibssh2Version() throws {
        try SSHLibrary.ensureInitialised()
        let (major, minor, _) = SSHLibrary.versionNumber
        #expect(major > 1 || (major == 1 && minor >= 11), "eSSH needs libssh2 1.11 or newer, runs \(SSHLibrary.version)")
        #expect(SSHLibrary.version.hasPrefix("\(major).\(minor)"))
    }

    /// Built from Debian's source, the library is linked in and says so; from the system, it is the loaded .so.
    @Test func saysWhereTheLibraryCameFrom() throws {
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        if maps.contains("/libssh2.so") {
            #expect(SSHLibrary.origin.hasPrefix("the system's /"))
        } else {
            #expect(SSHLibrary.origin.contains("source package libssh2_"))
            #expect(SSHLibrary.origin.hasSuffix("linked statically"))
        }
    }
}
