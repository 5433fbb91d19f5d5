@testable import Operations
import Testing
import Transfer

/// A fleet copy's pure parts: where a pull lands per server, and each file's output line, the same on every server
/// that holds the same bytes so the report's grouping shows the ones that differ.
@Suite struct FleetCopyTests {
    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func aPullLandsInAFolderNamedAfterTheServer() {
        #expect(FleetCopy.pullFolder(root: bytes("collected"), server: "web1") == bytes("collected/web1/"))
        #expect(FleetCopy.pullFolder(root: bytes("collected/"), server: "admin@10.0.0.5:2222")
                == bytes("collected/admin@10.0.0.5:2222/"))
        #expect(FleetCopy.pullFolder(root: bytes("/tmp/c"), server: "a/b") == bytes("/tmp/c/a_b/"))
        #expect(FleetCopy.pullFolder(root: bytes("c"), server: "..") == bytes("c/_../"))
        #expect(FleetCopy.pullFolder(root: [], server: "x") == bytes("x/"))
    }

    @Test func eachFileIsOneLineNamingTheServersSide() {
        func outcome(_ status: FileOutcome.Status, _ checksum: ChecksumResult? = nil) -> FileOutcome {
            FileOutcome(source: bytes("/here/app.conf"), destination: bytes("/etc/app/app.conf"), size: 3, bytesSent: 3,
                        status: status, resumedFrom: nil, restartReason: nil, checksum: checksum, seconds: 0.1)
        }
        #expect(FleetCopy.line(outcome(.copied), upload: true) == "ok  /etc/app/app.conf")
        #expect(FleetCopy.line(outcome(.copied), upload: false) == "ok  /here/app.conf")
        #expect(FleetCopy.line(outcome(.copied, .matched(sha256: "abc")), upload: true) == "abc  /etc/app/app.conf")
        #expect(FleetCopy.line(outcome(.copied, .differ(local: "a", remote: "b")), upload: true)
                == "differs  /etc/app/app.conf: sha256 a here, b there")
        #expect(FleetCopy.line(outcome(.failed(reason: "permission denied")), upload: true)
                == "failed  /etc/app/app.conf: permission denied")
        #expect(FleetCopy.line(outcome(.skipped(reason: "not a regular file")), upload: true)
                == "skipped  /etc/app/app.conf: not a regular file")
        #expect(FleetCopy.line(outcome(.directoryMade), upload: true) == nil)
        // A newline in a name cannot split the line (the grouping compares lines).
        var odd = outcome(.copied)
        odd.destination = bytes("/etc/a\nb")
        #expect(FleetCopy.line(odd, upload: true) == "ok  /etc/a\\x0Ab")
    }
}
