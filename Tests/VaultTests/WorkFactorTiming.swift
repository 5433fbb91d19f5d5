import Foundation
import Testing
@testable import Vault

/// Measures one unlock's scrypt time per work factor on this machine (for VaultParameters.writeWorkFactor and
/// docs/DECISIONS.md). Runs only when ESSH_MEASURE_SCRYPT=1: it takes half a minute and its result is a figure, not
/// a pass or fail.
@Suite struct WorkFactorTiming {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["ESSH_MEASURE_SCRYPT"] == "1"))
    func measure() throws {
        let passphrase = Array("measure".utf8)
        for factor in 16...21 {
            let file = try AgeFile.encrypt(plaintext: [1], passphrase: passphrase, workFactor: factor)
            var times: [Double] = []
            for _ in 0..<3 {
                let start = Date()
                _ = try AgeFile.decrypt(file, passphrase: passphrase, maxWorkFactor: 22)
                times.append(Date().timeIntervalSince(start))
            }
            let line = "scrypt 2^\(factor): " + times.map { String(format: "%.3f s", $0) }.joined(separator: ", ") + "\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }
}
