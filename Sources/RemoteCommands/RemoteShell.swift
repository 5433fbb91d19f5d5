import SSH

/// Runs one command line on a server and collects its output: what the quick commands need from SSH.
/// `SSHSession` is the real one; unit tests give canned answers.
public protocol RemoteShell {
    /// Runs `command` to its end, collecting stdout and stderr, within `timeout` seconds (nil: no limit).
    func capture(_ command: String, input: CommandInput, timeout: Double?, cancel: Cancellation?)
        throws(SSHError) -> (stdout: [UInt8], stderr: [UInt8], exit: CommandExit)
}

extension SSHSession: RemoteShell {}
