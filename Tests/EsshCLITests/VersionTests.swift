import Testing
import TestSupport

@Suite struct VersionTests {
    @Test func versionNamesEsshAndLibssh2() throws {
        let r = try Binary.runEssh(["--version"])
        #expect(r.status == 0)
        #expect(r.out.contains("essh "))
        #expect(r.out.contains("libssh2 1.1"))
        // Where the library came from: Debian's source package built in, or the system's shared library.
        #expect(r.out.contains("source package libssh2_") || r.out.contains("the system's /"), "\(r.out)")
    }
}
