import RemoteCommands
import SSH

/// A shell with canned answers per command line, recording what ran. Unknown commands answer as bash does for a
/// missing program (exit 127, "command not found").
final class FakeShell: RemoteShell {
    struct Answer {
        var stdout: String
        var stderr: String = ""
        var status: Int32 = 0
    }

    var answers: [String: Answer]
    private(set) var ran: [String] = []

    init(_ answers: [String: Answer]) { self.answers = answers }

    func capture(_ command: String, input: CommandInput, timeout: Double?, cancel: Cancellation?)
        throws(SSHError) -> (stdout: [UInt8], stderr: [UInt8], exit: CommandExit) {
        ran.append(command)
        let answer = answers[command]
            ?? Answer(stdout: "", stderr: "bash: line 1: \(command.split(separator: " ")[0]): command not found\n",
                      status: 127)
        return (Array(answer.stdout.utf8), Array(answer.stderr.utf8), CommandExit(status: answer.status, signal: nil))
    }
}
