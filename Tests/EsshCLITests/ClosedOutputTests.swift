import Foundation
import Testing
import TestSupport

/// A reader that goes away (`essh servers list | head -c 100`) ends every command quietly with 141, never with a
/// crash (FileHandle's write used to stop the program with a fatal error, exit 132).
@Suite struct ClosedOutputTests {
    /// Runs essh with a stdout pipe whose reading end is already closed; returns its exit status and stderr.
    private func runWithClosedStdout(_ args: [String], environment: [String: String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binary.essh)
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try output.fileHandleForReading.close()
        try process.run()
        try output.fileHandleForWriting.close()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: err, as: UTF8.self))
    }

    @Test func serversListExportAndParseEndWith141WhenTheReaderIsGone() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let env = ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path]
        for i in 0..<50 {
            let r = try Binary.runEssh(["servers", "add", "s\(i)", "--host", "host-\(i).example"], environment: env)
            #expect(r.status == 0, "\(r.err)")
        }
        // Real ifconfig output from the shared corpus, read where it lies.
        let parseInput = RepoPaths.shared + "/fixtures/network/centos-7.7/ifconfig.out"
        for args in [["servers", "list"], ["servers", "list", "--json"], ["servers", "export"],
                     ["parse", "interfaces", parseInput], ["parse", "interfaces", "--json", parseInput],
                     ["mail", "--list"]] {
            let (status, err) = try runWithClosedStdout(args, environment: env)
            #expect(status == 141, "\(args): \(status) \(err)")
            #expect(!err.contains("Fatal error"), "\(args): \(err)")
        }
    }
}
