import Foundation
import Testing
import TestSupport

/// The team database's password asked once on the terminal and kept in the vault: the next command asks nothing.
@Suite(.serialized) struct TeamVaultTests {
    typealias Home = TeamFixture.Home

    @Test func thePasswordIsAskedOnceAndKeptInTheVault() throws {
        let team = try TeamFixture.makeTeam()
        let member = try Home(team, team.member)
        defer { _ = try? member.essh(["vault", "lock"]); member.cleanup() }
        let passphrase = member.dir.file("passphrase")
        try PostgresCluster.writePassFile(["vault passphrase"], to: passphrase)
        var r = try member.essh(["config", "set", "vault.passphrase_command", "cat " + passphrase])
        #expect(r.status == 0, "\(r.err)")
        r = try member.essh(["vault", "init", "--work-factor", "10"])
        #expect(r.status == 0, "\(r.err)")
        let password = try #require(team.passwords[team.member])

        // No terminal, no pgpass, no password file: a clear sentence, nothing linked.
        r = try member.essh(["team", "join", team.url(team.member)])
        #expect(r.status == 255 && r.err.contains("asks for a password") && r.err.contains("--password-file"),
                "\(r.status) \(r.err)")

        let join = try PseudoTerminal.run(Binary.essh, ["team", "join", team.url(team.member)],
                                          environment: member.environment,
                                          answers: [("Password for", password)], timeout: 60)
        #expect(join.status == 0 && join.transcript.contains("Joined"), "\(join.transcript)")
        #expect(join.transcript.contains("kept in the vault") && !join.transcript.contains(password),
                "\(join.transcript)")
        #expect(join.transcript.components(separatedBy: "Password for").count == 2, "asked once")
        r = try member.essh(["vault", "list"])
        #expect(r.out.contains("team database \(team.member)@127.0.0.1") && !r.out.contains(password),
                "\(r.out)\(r.err)")

        // Next commands ask nothing: without a terminal, and on one.
        r = try member.essh(["team", "sync"])
        #expect(r.status == 0 && r.out.contains("Synced"), "\(r.status) \(r.out)\(r.err)")
        let again = try PseudoTerminal.run(Binary.essh, ["team", "sync"], environment: member.environment,
                                           answers: [], timeout: 30)
        #expect(again.status == 0 && !again.transcript.contains("Password for"), "\(again.transcript)")
        let (_, status) = try member.status(offline: false)
        #expect(status["reachable"] as? Bool == true, "\(status)")

        // The password changed on the server: the kept one is refused, asked once more, and kept anew.
        try team.cluster.psql("ALTER ROLE \"\(team.member)\" PASSWORD 'a new one';")
        let changed = try PseudoTerminal.run(Binary.essh, ["team", "sync"], environment: member.environment,
                                             answers: [("Password for", "a new one")], timeout: 60)
        #expect(changed.status == 0 && changed.transcript.contains("was refused"), "\(changed.transcript)")
        r = try member.essh(["team", "sync"])
        #expect(r.status == 0, "\(r.status) \(r.err)")
    }
}
