import Foundation
import Testing
import TestSupport

/// Starting the curses terminal where it cannot work gives a clear message and a non-zero exit, never a crash
/// or a garbled terminal.
@Suite struct CursesTerminalErrorTests {
    @Test func withoutATerminalTheDemoSaysSoAndExits() throws {
        let result = try Binary.run(Binary.product("TUIKitDemo"), [], timeout: 20)
        #expect(result.status == 1)
        #expect(result.err.contains("needs a terminal, but standard input is not one"))
        #expect(result.out.isEmpty)
    }

    @Test func anUnknownTerminalTypeIsNamedInTheMessage() throws {
        let tmux = try TmuxSession.launch(Binary.product("TUIKitDemo"), environment: ["TERM": "no-such-terminal"])
        defer { tmux.kill() }
        let screen = try tmux.waitFor(text: "EXIT=")
        #expect(screen.contains { $0.contains("EXIT=1") })
        #expect(screen.joined(separator: " ").contains("TERM=no-such-terminal is not known"))
    }

    @Test func badArgumentsAreRefusedWithAMessage() throws {
        let unknown = try Binary.run(Binary.product("TUIKitDemo"), ["--bogus"], timeout: 20)
        #expect(unknown.status == 2)
        #expect(unknown.err.contains("unknown argument --bogus"))
        let notNumber = try Binary.run(Binary.product("TUIKitDemo"), ["--lines", "many"], timeout: 20)
        #expect(notNumber.status == 2)
        #expect(notNumber.err.contains("--lines needs a whole number"))
    }
}
