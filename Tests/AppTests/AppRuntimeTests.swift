import Foundation
import Inventory
import Testing
import TestSupport
import TUIKit
@testable import App
@testable import AppCore

/// The UI loop with a scripted terminal and a real in-memory inventory: effects run off the loop, their
/// results come back through the queue, and the screen shows them.
@Suite("AppRuntime")
struct AppRuntimeTests {
    /// Presses each key once the screen shows its text; gives up (pressing q) after a deadline.
    final class ScriptedTerminal: Terminal {
        let size = Size(width: 80, height: 24)
        private(set) var frames: [[String]] = []
        private var script: [(waitFor: String, key: Key)]
        private let deadline = Date().addingTimeInterval(10)
        private(set) var timedOut = false
        private let wakes = TestTerminal(size: Size(width: 1, height: 1))

        init(_ script: [(waitFor: String, key: Key)]) { self.script = script }

        func draw(_ buffer: Buffer, cursor: Point?) throws { frames.append(buffer.lines()) }

        func poll(timeout: Duration?) throws -> InputEvent? {
            if Date() > deadline {
                timedOut = true
                return .key(.character("q"))
            }
            if let step = script.first, frames.last?.contains(where: { $0.contains(step.waitFor) }) == true {
                script.removeFirst()
                return .key(step.key)
            }
            usleep(5_000)
            return nil
        }

        var waker: any TerminalWaker { wakes.waker }
        func suspend<T>(_ body: () throws -> T) throws -> T { try body() }
        func bell() {}
        func shutdown() {}
    }

    /// Runs the loop over an inventory holding one server on a closed loopback port, with HOME and the log
    /// in `dir`.
    private func run(_ script: [(waitFor: String, key: Key)], dir: TempDir) throws
        -> (ScriptedTerminal, Inventory, AppRuntime)
    {
        let inventory = try Inventory()
        try inventory.addServer(ServerDraft(name: "closed", host: "127.0.0.1", port: 1, user: "nobody"))
        let terminal = ScriptedTerminal(script)
        let runtime = AppRuntime(terminal: terminal, inventory: inventory,
                                 environment: ["HOME": dir.path, "XDG_STATE_HOME": dir.file("state")],
                                 localUser: "me", unicode: true)
        try runtime.run()
        #expect(!terminal.timedOut, "last screen: \(terminal.frames.last ?? [])")
        return (terminal, inventory, runtime)
    }

    @Test func startupLoadsChecksAndRecordsThenQQuits() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (terminal, inventory, runtime) = try run([(waitFor: "Checked 1 server", key: .character("q"))], dir: dir)
        #expect(terminal.frames.last?.contains { $0.contains("closed") && $0.contains("refused") } == true)
        #expect(try inventory.lastCheckResults().values.first?.status == "refused")
        #expect(runtime.state.shouldQuit)
    }

    @Test func aConnectionFailureComesBackAsADialog() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (terminal, _, _) = try run([
            (waitFor: "Checked 1 server", key: .enter),
            (waitFor: "Could not connect", key: .enter),
            (waitFor: "eSSH — Servers", key: .character("q")),
        ], dir: dir)
        #expect(terminal.frames.contains { $0.contains { $0.contains("refused the connection") } })
        let log = try String(contentsOfFile: dir.file("state/essh/essh.log"), encoding: .utf8)
        #expect(log.contains("connect nobody@127.0.0.1:1 failed: refused"))
    }
}
