import Foundation
import Testing
import Basics

@Suite struct ShellQuotingTests {
    @Test func wordsComeBackByteForByteFromSh() throws {
        let words: [[UInt8]] = [
            [], Array("plain".utf8), Array("it's".utf8), Array("-n".utf8), Array("a b\nc\td".utf8),
            Array("$(touch /tmp/x) `id` \\ \" ! * ?".utf8), Array("ünïcødé ✓".utf8), [0x66, 0xFF, 0x80, 0x27, 0xC3],
        ]
        for word in words {
            let quoted = ShellQuoting.quote(word)
            // /bin/sh (dash on Debian) prints the word back.
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", "printf '%s' \(quoted)"]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            #expect(Array(data) == word, "\(quoted)")
        }
        #expect(ShellQuoting.quote(Array("it's".utf8)) == "'it'\\''s'")
        #expect(ShellQuoting.quote([0xFF]) == "\"$(printf '\\377')\"")
    }
}
