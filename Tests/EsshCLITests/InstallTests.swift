import Foundation
import Testing
import TestSupport

/// `make install` / `make uninstall` into a DESTDIR under a temporary folder: the binary, the three completion
/// scripts and the man page where each shell and man look for them; the man page generated from the command tree,
/// so it lists every subcommand `essh --help` lists.
@Suite struct InstallTests {
    private func make(_ args: [String]) throws -> RunResult {
        try Binary.run(try CompletionTests.program("make"), ["--no-print-directory", "-C", RepoPaths.root] + args,
                       timeout: 300)
    }

    @Test func installPutsEveryFileInPlaceAndUninstallRemovesThem() throws {
        let tool = RepoPaths.root + "/.build/debug/generate-manual"
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            Issue.record("\(tool) is missing: `make test` builds it (swift build --product generate-manual).")
            return
        }
        let dir = try TempDir()
        defer { dir.cleanup() }
        let destdir = dir.file("dest")
        let install = try make(["install-files", "ESSH_BIN=\(Binary.essh)", "DESTDIR=\(destdir)", "PREFIX=/usr/local"])
        #expect(install.status == 0, "\(install.out)\n\(install.err)")
        let prefix = destdir + "/usr/local"
        let files = ["bin/essh", "share/bash-completion/completions/essh", "share/zsh/site-functions/_essh",
                     "share/fish/vendor_completions.d/essh.fish", "share/man/man1/essh.1"]
        for file in files { #expect(FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file)") }
        let binary = prefix + "/bin/essh"
        #expect(FileManager.default.isExecutableFile(atPath: binary))
        #expect(try Binary.run(binary, ["--version"]).out.hasPrefix("essh "))

        // The man page lists every subcommand of `essh --help`.
        let manual = try String(contentsOfFile: prefix + "/share/man/man1/essh.1", encoding: .utf8)
        #expect(manual.contains(".Dt ESSH 1"))
        let help = try Binary.run(binary, ["--help"]).out
        // The SUBCOMMANDS block: `  name   abstract` lines (continuations indented further) up to a blank line.
        let block = help.components(separatedBy: "SUBCOMMANDS:\n").last?.components(separatedBy: "\n\n").first ?? ""
        let subcommands = block.split(separator: "\n")
            .compactMap { $0.hasPrefix("  ") && !$0.hasPrefix("   ") ? $0.split(separator: " ").first.map(String.init) : nil }
        #expect(subcommands.contains("config") && subcommands.contains("servers"), "\(subcommands)")
        for name in subcommands { #expect(manual.contains(".It Em \(name)"), "\(name) in the man page") }

        // The installed bash completion, with the installed binary, lists a saved server.
        let db = dir.file("essh.db")
        #expect(try Binary.run(binary, ["servers", "add", "lab1", "--host", "h"], environment: ["ESSH_DB": db]).status == 0)
        let offered = try CompletionTests.bash(script: prefix + "/share/bash-completion/completions/essh",
                                               binary: binary, ["servers", "show", "la"],
                                               environment: ["ESSH_DB": db, "HOME": dir.path])
        #expect(offered == ["lab1"])

        let uninstall = try make(["uninstall", "DESTDIR=\(destdir)", "PREFIX=/usr/local"])
        #expect(uninstall.status == 0, "\(uninstall.err)")
        for file in files { #expect(!FileManager.default.fileExists(atPath: prefix + "/" + file), "\(file) left") }
    }
}
