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

    /// Always the library built from Debian's source with eSSH's patches, linked in (no system .so), and it names
    /// every patch in Sources/CLibSSH2/patches (what `essh --version` prints).
    @Test func saysWhereTheLibraryCameFromAndEveryPatch() throws {
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        #expect(!maps.contains("/libssh2.so"), "a system libssh2 is loaded")
        #expect(SSHLibrary.origin.contains("source package libssh2_"))
        #expect(SSHLibrary.origin.hasSuffix("linked statically"))
        let patches = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/CLibSSH2/patches").standardizedFileURL
        let names = try FileManager.default.contentsOfDirectory(atPath: patches.path)
            .filter { $0.hasSuffix(".patch") }.map { String($0.dropLast(".patch".count)) }
        #expect(names.count >= 17)
        for name in names { #expect(SSHLibrary.origin.contains(name), "essh --version does not name \(name)") }
    }
}
