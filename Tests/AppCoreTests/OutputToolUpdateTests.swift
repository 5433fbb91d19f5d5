import Foundation
import Mail
import NetParsers
import Testing
import TUIKit
@testable import AppCore

@Suite("Mail, save and pipe the output: update")
struct OutputToolUpdateTests {
    /// A session where `df -h` ran and printed two chunks (one with invalid UTF-8), then exited 3.
    func afterCommand() -> AppState {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "df -h")
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .output(id: 1, bytes: Array("Größe\n".utf8)))
        _ = Update.update(&state, .output(id: 1, bytes: [0x66, 0xFF, 0x0A]))
        _ = Update.update(&state, .commandFinished(id: 1, status: 3, signal: nil,
                                                   at: Fixtures.now.addingTimeInterval(85.5)))
        return state
    }

    @Test func theRawOutputAndHowTheCommandEndedAreKept() throws {
        let capture = try #require(afterCommand().session?.capture)
        #expect(capture.bytes == Array("Größe\n".utf8) + [0x66, 0xFF, 0x0A])
        #expect(capture.command == "df -h")
        #expect(capture.status == 3)
        #expect(capture.finishedAt == Fixtures.now.addingTimeInterval(85.5))
    }

    @Test func f6OpensTheFormPrefilledAndEnterSendsOffTheUIThread() throws {
        var state = afterCommand()
        _ = Update.update(&state, .loaded(servers: Fixtures.servers, checks: [:],
                                          settings: ["mail.recipient": "ops@example.org",
                                                     "mail.sendmail": "/opt/mta/sendmail",
                                                     "mail.max_inline": "5000"]))
        #expect(Fixtures.keys(&state, .function(6)).isEmpty)
        let tool = try #require(state.outputTool)
        #expect(tool.kind == .mail)
        #expect(tool.text(0) == "ops@example.org")
        #expect(tool.text(1) == "essh: df -h on web1")
        #expect(!tool.tableAvailable)
        #expect(Fixtures.screen(state).contains { $0.contains("Mail the output") })
        let effects = Fixtures.keys(&state, .enter)
        #expect(state.outputTool == nil)
        guard case .sendMail(let mail, let sendmail) = effects.first?.work else {
            Issue.record("expected a sendMail effect, got \(effects)")
            return
        }
        #expect(sendmail == "/opt/mta/sendmail")
        #expect(mail.to == ["ops@example.org"])
        #expect(mail.maxInline == 5000)
        #expect(mail.output == Array("Größe\n".utf8) + [0x66, 0xFF, 0x0A])
        #expect(mail.report == CommandReport(server: "web1", user: "admin", command: "df -h", exitStatus: 3,
                                             startedAt: Fixtures.now.addingTimeInterval(83), duration: 2.5))
        #expect(state.notice == "Sending mail to ops@example.org…")
    }

    @Test func aBadAddressOrAnInjectedSubjectKeepsTheFormOpenSayingWhy() {
        var state = afterCommand()
        Fixtures.keys(&state, .function(6))
        Fixtures.type(&state, "ops@@example.org")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.outputTool?.error?.contains("is not a mail address") == true)
        Fixtures.keys(&state, .ctrl("u"))
        Fixtures.type(&state, "ops@example.org")
        Fixtures.keys(&state, .tab)
        // The field takes no control characters from keys; text that holds one anyway is still refused.
        Fixtures.keys(&state, .character("\u{0B}"))
        #expect(state.outputTool?.text(1) == "essh: df -h on web1")
        state.outputTool?.fields[1].input.setText("report\u{0B}Bcc: x@example.org")
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.outputTool?.error?.contains("The Subject field contains") == true)
        Fixtures.keys(&state, .escape)
        #expect(state.outputTool == nil)
    }

    @Test func theParsedTableIsOfferedWhenTheViewShowsOne() throws {
        var state = Fixtures.inSession()
        Fixtures.keys(&state, .function(3))
        _ = Update.update(&state, .output(id: 1, bytes: Array("default via 192.0.2.1 dev eth0\n".utf8)))
        let table = Table(columns: [.init("DESTINATION"), .init("GATEWAY")], rows: [["default", "192.0.2.1"]])
        _ = Update.update(&state, .quickFinished(id: 1, result: QuickResult(kind: .routes, commandLine: "ip route",
                                                                           table: table, error: nil),
                                                 at: Fixtures.now.addingTimeInterval(84)))
        Fixtures.keys(&state, .function(6))
        #expect(state.outputTool?.sendTable == true)
        #expect(state.outputTool?.text(1) == "essh: ip route on web1")
        Fixtures.type(&state, "ops@example.org")
        guard case .sendMail(let parsed, _) = Fixtures.keys(&state, .enter).first?.work else {
            Issue.record("no mail")
            return
        }
        #expect(String(decoding: parsed.output, as: UTF8.self) == TableFormatter().render(table))
        #expect(parsed.report?.exitStatus == 0)
        Fixtures.keys(&state, .function(6))
        Fixtures.type(&state, "ops@example.org")
        Fixtures.keys(&state, .function(5))
        #expect(state.outputTool?.sendTable == false)
        guard case .sendMail(let raw, _) = Fixtures.keys(&state, .enter).first?.work else {
            Issue.record("no mail")
            return
        }
        #expect(raw.output == Array("default via 192.0.2.1 dev eth0\n".utf8))
    }

    @Test func nothingToTakeWhileRunningOrBeforeTheFirstCommand() {
        var state = Fixtures.inSession()
        Fixtures.keys(&state, .function(6))
        #expect(state.outputTool == nil)
        #expect(state.notice == "No output yet: run a command first.")
        Fixtures.type(&state, "sleep 9")
        Fixtures.keys(&state, .enter)
        Fixtures.keys(&state, .function(7))
        #expect(state.outputTool == nil)
        #expect(state.notice?.hasPrefix("A command is still running") == true)
    }

    @Test func mailResultsAreSaid() {
        var state = afterCommand()
        _ = Update.update(&state, .mailFinished(.success(.sent), to: ["a@example.org", "b@example.org"]))
        #expect(state.notice == "Mail sent to a@example.org, b@example.org.")
        let error = MailError(.sendmailMissing, "", "There is no sendmail program at /x.")
        _ = Update.update(&state, .mailFinished(.success(.queued(id: 4, error: error)), to: ["a@example.org"]))
        #expect(state.dialog?.message.contains("There is no sendmail program at /x.") == true)
        #expect(state.dialog?.message.contains("kept in the outbox as #4") == true)
        #expect(state.notice?.contains("F9") == true)
    }

    @Test func f9RetriesTheOutboxAndSaysHowItWent() {
        var state = afterCommand()
        #expect(Fixtures.keys(&state, .function(9)) == [.retryMail(sendmail: "/usr/sbin/sendmail")])
        let pending = PendingMail(id: 1, recipients: "a@example.org", subject: "s", bytes: [], attempts: 1,
                                  lastError: nil)
        _ = Update.update(&state, .mailRetried([.init(mail: pending, error: nil)], error: nil))
        #expect(state.notice == "Outbox: 1 sent, 0 still waiting.")
        _ = Update.update(&state, .mailRetried([], error: nil))
        #expect(state.notice == "The outbox is empty.")
    }

    @Test func f7OffersADatedNameAndATakenNameComesBackWithTheReason() {
        var state = afterCommand()
        Fixtures.keys(&state, .function(7))
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let name = "~/essh-web1-\(formatter.string(from: state.now)).txt"
        #expect(state.outputTool?.text(0) == name)
        let effects = Fixtures.keys(&state, .enter)
        #expect(effects == [.saveOutput(path: name, bytes: Array("Größe\n".utf8) + [0x66, 0xFF, 0x0A])])
        _ = Update.update(&state, .outputSaved(path: name, error: "\(name) already exists; eSSH never overwrites a file."))
        #expect(state.outputTool?.kind == .save)
        #expect(state.outputTool?.error?.contains("already exists") == true)
        Fixtures.keys(&state, .escape)
        _ = Update.update(&state, .outputSaved(path: name, error: nil))
        #expect(state.notice == "Saved the output to \(name) (readable by you only).")
    }

    @Test func pipeOnAnEmptyCommandLineHandsTheOutputOver() {
        var state = afterCommand()
        Fixtures.type(&state, "|")
        #expect(state.outputTool?.kind == .pipe)
        #expect(Fixtures.keys(&state, .enter).isEmpty)
        #expect(state.outputTool?.error == "Type a command, e.g. less or wc -l.")
        Fixtures.type(&state, "wc -l")
        #expect(Fixtures.keys(&state, .enter)
                == [.handOver(.pipe(command: "wc -l", input: Array("Größe\n".utf8) + [0x66, 0xFF, 0x0A]))])
        #expect(state.outputTool == nil)
        // With text on the command line `|` is typed, as in a shell.
        Fixtures.type(&state, "ps | wc")
        #expect(state.session?.input.text == "ps | wc")
        #expect(state.outputTool == nil)
    }

    @Test func outputBeyondTheCaptureLimitIsCountedNotKept() {
        var capture = OutputCapture(commandId: 1, command: "cat", startedAt: Fixtures.now)
        capture.append([UInt8](repeating: 65, count: OutputCapture.limit - 2))
        capture.append([66, 66, 66, 66, 66])
        #expect(capture.bytes.count == OutputCapture.limit)
        #expect(capture.cut == 3)
        #expect(String(decoding: capture.keptBytes.suffix(40), as: UTF8.self).contains("3 more bytes were not kept"))
    }
}
