import Testing
import TestSupport

@Suite struct VersionTests {
    @Test func versionNamesEsshAndLibssh2() throws {
        let r = try Binary.runEssh(["--version"])
        #expect(r.status == 0)
        #expect(r.out.contains("essh "))
        #expect(r.out.contains("libssh2 1."))
    }
}
