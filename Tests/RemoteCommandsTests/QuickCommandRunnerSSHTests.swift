import Foundation
import NetParsers
import RemoteCommands
import SSH
import Testing
import TestSupport

/// The runner against the real test sshd (a Linux server: this machine).
@Suite struct QuickCommandRunnerSSHTests {
    private func session() throws -> SSHSession {
        let s = try TestServers.require()
        var o = ConnectOptions(host: s.host, port: s.port, user: s.user, knownHostsFile: s.knownHosts)
        o.globalKnownHostsFiles = []
        o.identityFiles = [s.key("id_ed25519")]
        o.useAgent = false
        o.connectTimeout = 5
        return try SSHSession.connect(o)
    }

    @Test func detectsLinuxAndReadsInterfacesWithTheFirstCommand() throws {
        let ssh = try session()
        defer { ssh.disconnect() }
        let output = try QuickCommandRunner(shell: ssh).run(.interfaces, os: .auto)
        #expect(output.os == .linux && output.osWasDetected)
        #expect(output.command.commandLine == "ip -j addr" && output.skipped.isEmpty)
        guard case .success(.interfaces(let result)) = output.parsed else {
            Issue.record("not parsed: \(output.parsed)")
            return
        }
        let lo = result.items.first { $0.name == "lo" }
        #expect(lo?.ipv4.map(\.address) == ["127.0.0.1"])
    }

    /// The real Linux plan in a shell whose PATH holds no directory: `ip` and `ifconfig` are not found, and the
    /// plan's last entry (ifconfig by absolute path, from net-tools) answers.
    @Test func fallsBackWhenIpIsNotOnThePath() throws {
        let ssh = try session()
        defer { ssh.disconnect() }
        let plan = QuickCommand.plan(for: .linux, kind: .interfaces).map { command in
            var c = command
            c.commandLine = "PATH=/nonexistent-essh-test; " + command.commandLine
            return c
        }
        let output = try QuickCommandRunner(shell: ssh).run(.interfaces, plan: plan)
        #expect(output.command.commandLine.hasSuffix("; /sbin/ifconfig -a"))
        #expect(output.skipped.map(\.reason) == ["not found", "not found", "not found"])
        #expect(output.skipped.first?.commandLine.hasSuffix("; ip -j addr") == true)
        guard case .success(.interfaces(let result)) = output.parsed else {
            Issue.record("not parsed: \(output.parsed)")
            return
        }
        #expect(result.format == .ifconfigLinux)
        #expect(result.items.first { $0.name == "lo" }?.ipv4.map(\.address) == ["127.0.0.1"])
    }

    @Test func aPlanOfMissingCommandsNamesEachInTheError() throws {
        let ssh = try session()
        defer { ssh.disconnect() }
        let plan = [QuickCommand("essh-no-such-command-1", family: .ip, format: .ipAddr),
                    QuickCommand("/nonexistent/essh-no-such-command-2", family: .ip, format: .ipAddr)]
        #expect {
            try QuickCommandRunner(shell: ssh).run(.interfaces, plan: plan)
        } throws: { error in
            let message = (error as? RemoteCommandsError)?.message ?? ""
            return message.contains("essh-no-such-command-1 (not found)")
                && message.contains("/nonexistent/essh-no-such-command-2 (not found)")
        }
        #expect(ssh.isConnected, "the session stays usable")
    }
}
