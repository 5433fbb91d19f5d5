import Basics
import CLI
import Foundation
import Inventory
import Mail
import SSH
import Testing
import TestSupport
import Vault

/// The command line's table (Swift Testing has an `ExitStatus` of its own).
private typealias ExitStatus = CLI.ExitStatus

/// One exit-status table for every command (`ExitStatus`): README and `essh --help` list exactly it, every exit of
/// the command line goes through it, usage errors show the usage and nothing else does.
@Suite struct ExitStatusTests {
    private func essh(_ dir: TempDir, _ args: [String], stdin: Data? = nil) throws -> RunResult {
        try Binary.runEssh(args, stdin: stdin, environment: ["ESSH_DB": dir.file("essh.db"), "HOME": dir.path])
    }

    /// A failure of the work: one `essh: ` line, no usage block.
    private func expectOneLine(_ r: RunResult, _ status: ExitStatus, _ words: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == status.rawValue, "\(r.err)", sourceLocation: sourceLocation)
        #expect(r.err.hasPrefix("essh: ") && r.err.contains(words), "\(r.err)", sourceLocation: sourceLocation)
        #expect(!r.err.contains("Usage:") && !r.err.contains("USAGE:"), "\(r.err)", sourceLocation: sourceLocation)
        #expect(!r.err.contains("Error Domain=") && !r.err.contains("NSCocoaErrorDomain"), "\(r.err)",
                sourceLocation: sourceLocation)
    }

    // MARK: The table, written once

    @Test func readmeListsExactlyTheTable() throws {
        let readme = try String(contentsOfFile: RepoPaths.root + "/README.md", encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "\n## Exit status\n").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        var rows: [[String]] = []
        for line in section.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
            if Int32(cells[0]) != nil { rows.append(cells.map { $0.replacingOccurrences(of: "\\|", with: "|") }) }
        }
        #expect(rows == ExitStatus.allCases.map { [String($0.rawValue), $0.meaning, $0.examples] })
        #expect(section.contains("remote command's own status"))
    }

    @Test func helpListsExactlyTheTable() throws {
        let r = try Binary.runEssh(["--help"])
        #expect(r.status == 0)
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex(of: "Exit status, the same for every command:"), "\(r.out)")
        let rows = lines[(heading + 1)...].prefix { $0.first == " " && $0.dropFirst(2).first?.isNumber == true }
        let parsed = rows.map { row -> [String] in
            let words = row.split(separator: " ", maxSplits: 1).map(String.init)
            return [words[0], words[1].trimmingCharacters(in: .whitespaces)]
        }
        #expect(parsed == ExitStatus.allCases.map { [String($0.rawValue), $0.meaning] })
        #expect(lines[heading + 1 + rows.count] == "  " + ExitStatus.remoteStatus + ".")
        // Each row fits in 80 columns, so ArgumentParser's wrapping never splits one.
        for line in ExitStatus.helpText.split(separator: "\n") { #expect(line.count < 80, "\(line)") }
    }

    /// Every exit of the command line takes its status from the table: no number written anywhere else.
    @Test func noCommandWritesAStatusOfItsOwn() throws {
        let pattern = try Regex(#"ExitCode\(\s*\d|ExitCode\.(failure|validationFailure)|exit\(\s*\d"#)
        for folder in ["Sources/CLI", "Sources/essh"] {
            let path = RepoPaths.root + "/" + folder
            for file in try FileManager.default.contentsOfDirectory(atPath: path) where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: path + "/" + file, encoding: .utf8)
                for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains(pattern) {
                    Issue.record("\(folder)/\(file):\(n + 1) writes its own exit status: \(line)")
                }
            }
        }
    }

    /// The one mapping of every module's errors to the table.
    @Test func eachModulesErrorsMapToTheTable() {
        let cases: [(any Error, ExitStatus)] = [
            (InventoryError(.unknownServer, "", "x"), .badInput),
            (InventoryError(.invalidPort, "", "x"), .badInput),
            (InventoryError(.sshConfig, "", "x"), .badInput),
            (InventoryError(.locked, "", "x"), .database),
            (InventoryError(.corrupt, "", "x"), .database),
            (InventoryError(.newerDatabase, "", "x"), .database),
            (SSHError(.refused, "", "x"), .connection),
            (SSHError(.authenticationFailed, "", "x"), .connection),
            (SSHError(.commandTimedOut, "", "x"), .timedOut),
            (SSHError(.cancelled, "", "x"), .interrupted),
            (MailError(.invalidAddress, "", "x"), .badInput),
            (MailError(.sendmailFailed, "", "x"), .failed),
            (FileSystemError(path: "/x", errno: ENOENT, action: "read"), .badInput),
            (CocoaError(.fileReadNoPermission), .badInput),
            (POSIXError(.EACCES), .badInput),
            (CocoaError(.coderReadCorrupt), .failed),
            (CancellationError(), .failed),
            (VaultError.cannotOpen(path: "/v", .wrongPassphrase), .badInput),
            (VaultError.newerFormat(2, known: 1), .badInput),
            (VaultError.passphraseCommand("x"), .failed),
            (VaultError.agent("x"), .failed),
        ]
        for (error, status) in cases { #expect(ExitStatus(for: error) == status, "\(error)") }
    }

    // MARK: Usage errors: 64 and the usage

    @Test(arguments: [
        ["servers", "list", "--bogus"],
        ["exec", "host1"],
        ["check", "--timeout", "0"],
        ["parse", "disks"],
        ["exec", "--connect-timeout", "2", "x@bad host", "true"],
    ])
    func aMistakeInTheCommandLineShowsTheUsage(args: [String]) throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try essh(dir, args, stdin: Data())
        #expect(r.status == ExitStatus.usage.rawValue, "\(args): \(r.err)")
        #expect(r.err.hasPrefix("Error: ") && r.err.contains("Usage: essh"), "\(args): \(r.err)")
    }

    // MARK: Failures of the work: their status, one line, no usage

    @Test func aMissingKeyFileIsBadInputWithoutUsage() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try essh(dir, ["exec", "-i", dir.file("no-such-key"), "-p", "1", "u@127.0.0.1", "true"])
        expectOneLine(r, .badInput, "key file \(dir.file("no-such-key")): it does not exist or cannot be read")
    }

    @Test func aMissingPasswordFileIsNamedWithTheReason() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try essh(dir, ["exec", "--password-file", dir.file("pw"), "-p", "1", "u@127.0.0.1", "true"])
        expectOneLine(r, .badInput, "Cannot read the password file \(dir.file("pw")): it does not exist")
        #expect(FileManager.default.createFile(atPath: dir.file("pw"), contents: Data(),
                                               attributes: [.posixPermissions: 0o600]))
        let empty = try essh(dir, ["exec", "--password-file", dir.file("pw"), "-p", "1", "u@127.0.0.1", "true"])
        expectOneLine(empty, .badInput, "is empty")
    }

    @Test func aServerThatRefusesIsAConnectionFailureWithoutUsage() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let r = try essh(dir, ["exec", "--known-hosts", "/dev/null", "-p", "1", "u@127.0.0.1", "true"])
        expectOneLine(r, .connection, "refused the connection on port 1")
    }

    @Test func anUnknownTagIsBadInputWithoutUsage() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let none = try essh(dir, ["exec", "--tag", "web", "--", "true"])
        expectOneLine(none, .badInput, "There is no database at")
        #expect(try essh(dir, ["servers", "add", "a", "--host", "127.0.0.1", "--tag", "db"]).status == 0)
        let r = try essh(dir, ["exec", "--tag", "web", "--", "true"])
        expectOneLine(r, .badInput, "No saved server has the tag 'web'")
        expectOneLine(try essh(dir, ["check", "tag:web"]), .badInput, "No saved server has the tag 'web'")
        expectOneLine(try essh(dir, ["servers", "rm", "nope"]), .badInput, "No saved server is named 'nope'")
    }

    @Test func aFileThatCannotBeReadIsBadInputNamingItAndWhy() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        expectOneLine(try essh(dir, ["parse", "routes", dir.file("routes.txt")]), .badInput,
                      "Cannot read \(dir.file("routes.txt")): it does not exist")
        expectOneLine(try essh(dir, ["parse", "routes", dir.path]), .badInput,
                      "Cannot read \(dir.path): it is a folder")
        expectOneLine(try essh(dir, ["mail", "--to", "ops@example.org", dir.file("report.txt")]), .badInput,
                      "Cannot read \(dir.file("report.txt")): it does not exist")
        expectOneLine(try essh(dir, ["servers", "import-ssh-config", dir.file("config")]), .badInput,
                      "Cannot read the ssh config \(dir.file("config")): it does not exist.")
        #expect(!FileManager.default.fileExists(atPath: dir.file("essh.db")), "no database made for nothing")
    }

    @Test func aDatabaseThatCannotBeUsedIsItsOwnStatus() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        #expect(FileManager.default.createFile(atPath: dir.file("file"), contents: Data("x".utf8)))
        let r = try Binary.runEssh(["servers", "list", "--db", dir.file("file") + "/essh.db"])
        expectOneLine(r, .database, "is not a folder; the database cannot go there")
    }

    // MARK: Foundation's file errors as sentences

    /// known_hosts in a folder that cannot be made (/sys refuses new folders, even to root): Foundation's
    /// createDirectory error becomes a sentence naming the folder, also in -v's detail, never its domain dump.
    @Test func aFolderThatCannotBeMadeIsASentenceNotAFoundationDump() throws {
        let s = try TestServers.require()
        let folder = "/sys/essh-test-\(UUID().uuidString)"
        let r = try Binary.runEssh(["exec", "-v", "--known-hosts", folder + "/known_hosts", "--host-key-policy",
                                    "accept-new", "-i", s.key("id_ed25519"), "-p", String(s.port),
                                    "\(s.user)@127.0.0.1", "true"])
        #expect(r.status == ExitStatus.connection.rawValue, "\(r.err)")
        #expect(r.err.contains("essh: Cannot create the folder \(folder): "), "\(r.err)")
        #expect(r.err.contains("The host key was not saved"), "\(r.err)")
        #expect(!r.err.contains("Error Domain=") && !r.err.contains("NSCocoaErrorDomain"), "\(r.err)")
        #expect(!r.err.contains("Usage:"))
    }
}
