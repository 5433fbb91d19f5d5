import Foundation
import Mail
import TestSupport
import Testing

/// The real transport: a stand-in script to see exactly what sendmail is given, and the real MTA (dma).
@Suite struct SendmailTests {
    @Test func sendmailGetsDashTDashIAndTheMessageOnStdin() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let script = dir.file("sendmail")
        try dir.writeScript("#!/bin/sh\nprintf '%s\\n' \"$@\" > \(dir.file("args"))\ncat > \(dir.file("stdin"))\n",
                            to: script)
        let message = Array("To: a@example.org\n\n.\nline after a lone dot\n".utf8)
        try Sendmail(path: script).send(message)
        #expect(try String(contentsOfFile: dir.file("args"), encoding: .utf8) == "-t\n-i\n")
        #expect(FileManager.default.contents(atPath: dir.file("stdin")).map(Array.init) == message)
    }

    @Test func sendmailInheritsNoOtherDescriptorOfOurs() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let script = dir.file("sendmail")
        // bash keeps its script open on fd 255; everything else would be ours.
        try dir.writeScript("#!/bin/bash\nls /proc/$$/fd > \(dir.file("fds"))\ncat >/dev/null\n", to: script)
        let held = open(dir.file("held"), O_CREAT | O_WRONLY, 0o600)
        defer { close(held) }
        try Sendmail(path: script).send(Array("To: a@example.org\n\nx\n".utf8))
        let fds = try String(contentsOfFile: dir.file("fds"), encoding: .utf8).split(separator: "\n")
        #expect(Set(fds) == ["0", "1", "2", "255"])
    }

    @Test func aProgramStartedMeanwhileDoesNotHoldTheMessageFiles() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let script = dir.file("sendmail"), seen = dir.file("files"), go = dir.file("go")
        try dir.writeScript("""
            #!/bin/sh
            input=$(readlink /proc/$$/fd/0); output=$(readlink /proc/$$/fd/1)
            printf '%s\\n%s\\n' "$input" "$output" > '\(seen).tmp'; mv '\(seen).tmp' '\(seen)'
            while [ ! -e '\(go)' ]; do sleep 0.02; done
            cat > /dev/null

            """, to: script)
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var failure: MailError?
        Thread {
            do throws(MailError) { try Sendmail(path: script).send(Array("To: a@example.org\n\nx\n".utf8)) } catch {
                failure = error
            }
            finished.signal()
        }.start()
        let files = try InheritedDescriptors.waitForFile(seen).split(separator: "\n").map(String.init)
        let inherited = try InheritedDescriptors.ofAProgramStartedNow()
        FileManager.default.createFile(atPath: go, contents: nil)
        #expect(finished.wait(timeout: .now() + 20) == .success)
        #expect(files.count == 2 && files.allSatisfy { $0.contains("essh-mail-") }, "\(files)")
        for file in files { #expect(!inherited.contains(file), "\(inherited)") }
        #expect(failure == nil)
    }

    @Test func aMissingProgramIsToldApartFromAFailingOne() {
        let error = #expect(throws: MailError.self) { try Sendmail(path: "/nonexistent/sendmail").send([]) }
        #expect(error?.kind == .sendmailMissing)
        #expect(error?.message.contains("There is no sendmail program at /nonexistent/sendmail") == true)
        #expect(error?.message.contains("mail.sendmail") == true)
    }

    @Test func aNonExecutableFileIsMissingToo() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        try "x".write(toFile: dir.file("sendmail"), atomically: true, encoding: .utf8)
        let error = #expect(throws: MailError.self) { try Sendmail(path: dir.file("sendmail")).send([]) }
        #expect(error?.kind == .sendmailMissing)
    }

    @Test func aNonZeroExitIsAFailureWithWhatSendmailSaid() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let script = dir.file("sendmail")
        try dir.writeScript("#!/bin/sh\ncat >/dev/null\necho 'relay refused: no route to mail.example.org' >&2\nexit 75\n", to: script)
        let error = #expect(throws: MailError.self) { try Sendmail(path: script).send(Array("To: a@b\n\nx\n".utf8)) }
        #expect(error?.kind == .sendmailFailed)
        #expect(error?.message.contains("exited with status 75: relay refused: no route to mail.example.org") == true)
    }

    @Test func exitStatus255IsAnExitAndASignalIsASignal() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        for (body, said) in [("exit 255", "exited with status 255"), ("kill -TERM $$", "was killed by signal 15")] {
            let script = dir.file("sendmail-\(said.count)")
            try dir.writeScript("#!/bin/sh\ncat >/dev/null\n\(body)\n", to: script)
            let error = #expect(throws: MailError.self) { try Sendmail(path: script).send(Array("To: a@b\n\nx\n".utf8)) }
            #expect(error?.kind == .sendmailFailed)
            #expect(error?.message.contains("sendmail (\(script)) \(said)") == true, "\(error?.message ?? "")")
        }
    }

    @Test func aHangingSendmailIsStopped() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let script = dir.file("sendmail")
        try dir.writeScript("#!/bin/sh\nexec sleep 30\n", to: script)
        let error = #expect(throws: MailError.self) { try Sendmail(path: script, timeout: 0.5).send([]) }
        #expect(error?.kind == .sendmailFailed)
        #expect(error?.message.contains("did not finish within") == true)
    }

    @Test func theRealMTADeliversALocalMessage() throws {
        let marker = "essh-mailtests-\(UUID().uuidString)"
        let body = "Grüße from the MailTests ✓\n"
        let composed = try OutputMail(to: ["essh-test@" + LocalIdentity.hostname], subject: "\(marker) Größe", report: nil,
                                      output: Array(body.utf8)).compose()
        try Sendmail().send(composed.bytes)
        let delivered = try MailInspector.delivered(to: "essh-test", marker: composed.messageID)
        let parsed = try MailInspector.parse(delivered)
        #expect(parsed.header("Subject") == "\(marker) Größe")
        #expect(parsed.header("Message-ID") == composed.messageID)
        #expect(parsed.parts.first?.text == body)
    }
}
