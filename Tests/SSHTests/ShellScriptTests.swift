import Foundation
import Testing
import TestSupport
@testable import SSH

/// The persistent shell's framing without a server: the marker scanner, the prompt's reply, the text sent.
@Suite struct MarkerScannerTests {
    /// Feeds `chunks` and returns what was emitted, whether the marker was found and what followed it.
    func scan(_ chunks: [[UInt8]], marker: String = "<m>") -> (emitted: [UInt8], found: Bool, after: [UInt8]) {
        var scanner = MarkerScanner(Array(marker.utf8))
        var emitted: [UInt8] = []
        for chunk in chunks { scanner.feed(chunk) { emitted += $0 } }
        if !scanner.found { scanner.flush { emitted += $0 } }
        return (emitted, scanner.found, scanner.takeAfter())
    }

    @Test func theMarkerIsFoundWhereverTheChunksAreCut() {
        let stream = Array("output <no <m> after".utf8)
        for cut in 0...stream.count {
            for second in cut...stream.count {
                let r = scan([Array(stream[..<cut]), Array(stream[cut..<second]), Array(stream[second...])])
                #expect(r.emitted == Array("output <no ".utf8), "cut at \(cut), \(second)")
                #expect(r.found)
                #expect(r.after == Array(" after".utf8), "cut at \(cut), \(second)")
            }
        }
    }

    @Test func aPrefixOfTheMarkerIsHeldBackThenPassedOnWhenItIsNotTheMarker() {
        var scanner = MarkerScanner(Array("<essh-out x>".utf8))
        var emitted: [UInt8] = []
        scanner.feed(Array("text<essh-o".utf8)) { emitted += $0 }
        #expect(emitted == Array("text".utf8))
        scanner.feed(Array("ut y>".utf8)) { emitted += $0 }
        #expect(emitted == Array("text<essh-out y>".utf8))
        scanner.feed(Array("<essh".utf8)) { emitted += $0 }
        scanner.flush { emitted += $0 }
        #expect(emitted == Array("text<essh-out y><essh".utf8))
        #expect(!scanner.found)
    }

    @Test func binaryOutputWithNULsAndTheMarkersFirstByteComesThroughExactly() {
        var bytes: [UInt8] = []
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<100_000 { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
        bytes += Array("<<<m".utf8)
        let r = scan(stride(from: 0, to: bytes.count, by: 4093).map { Array(bytes[$0..<min($0 + 4093, bytes.count)]) }
                     + [Array(">tail".utf8)])
        #expect(r.found)
        #expect(r.emitted == Array(bytes.dropLast(2)))
        #expect(r.after == Array("tail".utf8))
    }

    @Test func theLongestPartialEndIsKept() {
        let marker = Array("abab!".utf8)
        #expect(Array("xxabab".utf8).withUnsafeBytes { MarkerScanner.partialSuffix($0, of: marker) } == 4)
        #expect(Array("xxaba".utf8).withUnsafeBytes { MarkerScanner.partialSuffix($0, of: marker) } == 3)
        #expect(Array("xxab!".utf8).withUnsafeBytes { MarkerScanner.partialSuffix($0, of: marker) } == 0)
        #expect(Array("a".utf8).withUnsafeBytes { MarkerScanner.partialSuffix($0, of: marker) } == 1)
    }
}

@Suite struct ReplyScannerTests {
    let nonce = "0123456789abcdef0123456789abcdef"

    @Test func bothStreamsAreDelimitedAndThePromptIsRead() {
        var reply = ReplyScanner(nonce: nonce)
        var out: [UInt8] = [], err: [UInt8] = []
        reply.feed(.stdout, Array("no newline".utf8)) { out += $0 }
        reply.feed(.stderr, Array("warning\n<essh-err \(nonce)>late err".utf8)) { err += $0 }
        #expect(!reply.isComplete)
        reply.feed(.stdout, Array("<essh-out \(nonce)>2 4242 /tmp/a b\nc<essh-c".utf8)) { out += $0 }
        #expect(!reply.isComplete)
        reply.feed(.stdout, Array("wd \(nonce)>late out".utf8)) { out += $0 }
        #expect(reply.isComplete)
        #expect(out == Array("no newline".utf8))
        #expect(err == Array("warning\n".utf8))
        #expect(reply.reply == ShellReply(Array("2 4242 /tmp/a b\nc".utf8)))
        #expect(reply.reply?.status == 2)
        #expect(reply.reply?.pid == 4242)
        #expect(reply.reply?.directory == "/tmp/a b\nc")
        let late = reply.takeLate()
        #expect(late.stdout == Array("late out".utf8))
        #expect(late.stderr == Array("late err".utf8))
    }

    @Test func markersOfAnotherNonceAreOutput() {
        var reply = ReplyScanner(nonce: nonce)
        var out: [UInt8] = []
        let other = "<essh-out ffffffffffffffffffffffffffffffff>0 1 /<essh-cwd ffffffffffffffffffffffffffffffff>"
        reply.feed(.stdout, Array(other.utf8)) { out += $0 }
        reply.feed(.stderr, Array("<essh-err \(nonce)>".utf8)) { _ in }
        #expect(!reply.isComplete)
        #expect(out == Array(other.utf8))
    }
}

@Suite struct ShellScriptTests {
    /// What a local `sh -c` makes of `printf %s QUOTED`.
    func roundTrip(_ text: String, shell: String) throws -> [UInt8] {
        [UInt8](try Spawn.run(shell, ["-c", "printf %s " + ShellScript.quote(text)]).stdout)
    }

    @Test(arguments: ["/bin/dash", "/bin/bash"])
    func quotingGivesBackEveryByte(shell: String) throws {
        for text in ["", "plain", "it's", "'", "''", "a'b'c", "$HOME `id` $(id) \\ \" \n new line", "ünï 日本 ✓",
                     "\u{1}\u{7f}\u{1b}[2J", "!! !$ %s %%"] {
            #expect(try roundTrip(text, shell: shell) == Array(text.utf8), "\(text.debugDescription)")
        }
    }

    /// The text sent never holds a joined marker, so a shell echoing its input (`set -v`, `set -x`) cannot end a
    /// command early: the markers are put together by the shell when it prints its prompt.
    @Test func theTextSentNeverHoldsAJoinedMarker() {
        for _ in 0..<20 {
            let nonce = ShellScript.nonce()
            #expect(nonce.count == 32 && nonce.allSatisfy(\.isHexDigit))
            let sent = Array((ShellScript.probe(nonce: nonce) + ShellScript.resync(nonce: nonce)
                + ShellScript.command("echo hi", nonce: nonce, previousStatus: 3)).utf8)
            for marker in [ShellScript.stdoutMarker(nonce), ShellScript.stderrMarker(nonce),
                           ShellScript.directoryEnd(nonce)] {
                #expect(sent.withUnsafeBytes { MarkerScanner.find(marker, in: $0) } == nil)
            }
            #expect(sent.withUnsafeBytes { MarkerScanner.find(Array(nonce.utf8), in: $0) } != nil)
        }
        #expect(ShellScript.nonce() != ShellScript.nonce())
    }

    @Test func theStatusIsRestoredOnlyWhenNotZeroAndNotUnderSetE() {
        #expect(!ShellScript.command("true", nonce: "n", previousStatus: 0).contains("exit"))
        #expect(ShellScript.command("true", nonce: "n", previousStatus: 130)
            .contains("case $- in *e*) ;; *) (exit 130);; esac; "))
    }
}
