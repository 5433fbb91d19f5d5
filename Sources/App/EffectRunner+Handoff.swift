import Foundation

extension EffectRunner {
    /// Runs `handoff` on the calling (UI) thread while the runtime has left the full-screen mode; the terminal is
    /// the handed-over work's until this returns.
    func handOver(_ handoff: Handoff) -> HandoffOutcome {
        switch handoff {
        case .pipe(let command, let input):
            let result = LocalPipe.run(command: command, input: input)
            // Without the pause, `wc -l`'s answer would be painted over by the interface at once.
            Self.waitForEnter(after: "[\(result.summary)] Press Enter to return to eSSH.")
            return .piped(command: command, result: result)
        case .shell:
            return .shell(runShell())
        }
    }

    /// Shows `line` and reads the terminal (in its normal line mode while handed over) up to a newline or EOF.
    static func waitForEnter(after line: String) {
        let text = Array("\r\n\(line) ".utf8)
        _ = text.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        var byte: UInt8 = 0
        while true {
            let n = read(STDIN_FILENO, &byte, 1)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { return }
        }
    }
}
