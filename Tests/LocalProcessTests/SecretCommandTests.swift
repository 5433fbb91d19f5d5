import Foundation
import LocalProcess
import Testing

/// A program that prints a secret, run without a shell, with a timeout, its failures as sentences.
@Suite struct SecretCommandTests {
    private func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("essh-secret-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8),
                                               attributes: [.posixPermissions: 0o600]))
        return path
    }

    private func failure(_ words: [String], timeout: TimeInterval = 10) -> SecretCommand.Failure? {
        do {
            _ = try SecretCommand.run(words, timeout: timeout)
            return nil
        } catch {
            return error
        }
    }

    @Test func theOutputIsTheSecretWithOneTrailingNewlineRemoved() throws {
        let path = try file("s3cret pass\n\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try SecretCommand.run(["/bin/cat", path]) == "s3cret pass\n")
        let plain = try file("abc")
        defer { try? FileManager.default.removeItem(atPath: plain) }
        #expect(try SecretCommand.run(["cat", plain]) == "abc")
    }

    @Test func argumentsAreNotReadByAShell() throws {
        #expect(try SecretCommand.run(["/bin/echo", "$HOME;", "`id`"]) == "$HOME; `id`")
    }

    @Test func stdinIsEmptySoAPromptingProgramDoesNotWait() {
        #expect(failure(["/bin/cat"])?.kind == .emptyOutput)
    }

    @Test func failuresAreSentencesThatNeverQuoteTheOutput() {
        let exited = failure(["/bin/sh", "-c", "echo topsecret; echo oops >&2; exit 3"])
        #expect(exited?.kind == .exited(3))
        #expect(exited?.message == "/bin/sh exited with status 3 and gave no secret.")
        #expect(failure(["/bin/true"])?.message == "/bin/true printed nothing: there is no secret to use.")
        #expect(failure(["no-such-program-essh"])?.kind == .notFound)
        #expect(failure(["no-such-program-essh"])?.message == "'no-such-program-essh' is not on PATH; give its absolute path.")
        #expect(failure(["bin/cat"])?.message == "'bin/cat' is a relative path; give an absolute one.")
        #expect(failure(["/nonexistent/prog"])?.kind == .notFound)
    }

    @Test func aCommandThatHangsIsKilledAtTheTimeout() {
        let start = Date()
        let result = failure(["/bin/sleep", "30"], timeout: 0.3)
        #expect(result?.kind == .timedOut)
        #expect(result?.message == "/bin/sleep gave no answer within 0.3 s and was stopped.")
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test func anOutputAboveTheLimitIsRefused() {
        #expect(failure(["/usr/bin/head", "-c", "100000", "/dev/zero"])?.kind == .tooLong)
    }

    @Test func programsAreFoundOnThePathOrByAbsolutePathOnly() {
        #expect(SecretCommand.locate("cat", searchPath: "/nonexistent:/bin:/usr/bin") != nil)
        #expect(SecretCommand.locate("cat", searchPath: "relative:/nonexistent") == nil)
        #expect(SecretCommand.locate("/bin/cat", searchPath: nil) == "/bin/cat")
        #expect(SecretCommand.locate("./cat", searchPath: "/bin") == nil)
        #expect(SecretCommand.locate("/tmp", searchPath: nil) == nil)
    }
}
