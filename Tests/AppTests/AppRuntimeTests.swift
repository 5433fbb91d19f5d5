import SSH
import Operations
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
        func stopProcess() throws {}
        func bell() {}
        /// Every change of the mouse reporting asked for, in order.
        private(set) var mouseChanges: [Bool] = []
        func setMouseReporting(_ on: Bool) { mouseChanges.append(on) }
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
        #expect(try inventory.lastCheckResults().values.first?.status == .refused)
        #expect(runtime.state.shouldQuit)
    }

    /// The terminal starts with the mouse its own (text selects without Shift); m turns the wheel on and off, and a
    /// stored setting turns it on from the start.
    @Test func theMouseFollowsTheSetting() throws {
        let dir = try TempDir()
        defer { dir.cleanup() }
        let (terminal, inventory, _) = try run([
            (waitFor: "Checked 1 server", key: .character("m")),
            (waitFor: "Mouse wheel on", key: .character("m")),
            (waitFor: "Mouse wheel off", key: .character("q")),
        ], dir: dir)
        #expect(terminal.mouseChanges == [true, false])
        try inventory.setSetting("ui.mouse", to: "on")
        let again = ScriptedTerminal([(waitFor: "Checked 1 server", key: .character("q"))])
        let runtime = AppRuntime(terminal: again, inventory: inventory,
                                 environment: ["HOME": dir.path, "XDG_STATE_HOME": dir.file("state")],
                                 localUser: "me", unicode: true)
        try runtime.run()
        #expect(again.mouseChanges == [true])
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

    /// The effect handler the loop is tested with (teatest's seam): answers load, check and connect with canned
    /// messages through the loop's own queue, runs a handoff at once, and records what it was asked.
    final class FakeEffects: EffectHandler {
        let queue: MessageQueue
        private(set) var works: [Work] = []
        private(set) var handoffs: [Handoff] = []
        private(set) var finished = false
        let servers = [Server(id: 1, name: "web1", host: "10.0.0.5", port: 22, user: "admin", auth: .agent,
                              keyPath: nil, os: .linux, tags: [], note: "", createdAt: Date(), updatedAt: Date(),
                              lastConnectedAt: nil)]

        /// Whether `connect` logs in (else it is refused).
        let connects: Bool

        init(queue: MessageQueue, connects: Bool = false) {
            self.queue = queue
            self.connects = connects
        }

        func run(_ work: Work) {
            works.append(work)
            switch work {
            case .load: queue.post(.loaded(servers: servers, checks: [:], settings: [:]))
            case .check(let targets, _):
                for id in targets.keys { queue.post(.checkResult(serverId: id, status: .online, latencyMs: 1, at: Date())) }
                queue.post(.checkFinished(error: nil, at: Date()))
            case .connect where connects: queue.post(.connected(os: .linux, auth: .keyFile(path: "/k"), at: Date()))
            case .connect: queue.post(.connectFailed("10.0.0.5 refused the connection on port 22."))
            case .run(let id, _):
                queue.post(.output(id: id, bytes: Array("one\ntwo\n".utf8)))
                queue.post(.commandFinished(id: id, status: 0, signal: nil, at: Date()))
            default: break
            }
        }

        func handOver(_ handoff: Handoff) -> HandoffOutcome {
            handoffs.append(handoff)
            return .piped(command: "wc -l", result: .finished(.exited(0)))
        }

        func finish() { finished = true }
    }

    @Test func theLoopRunsEffectsThroughTheHandlerAndShowsTheirResults() throws {
        let terminal = ScriptedTerminal([
            (waitFor: "Checked 1 server: 1 online", key: .enter),
            (waitFor: "Could not connect", key: .enter),
            (waitFor: "eSSH — Servers", key: .character("q")),
        ])
        let queue = MessageQueue(waker: terminal.waker)
        let effects = FakeEffects(queue: queue)
        let runtime = AppRuntime(terminal: terminal, effects: effects, queue: queue, environment: [:],
                                 localUser: "me", unicode: true)
        try runtime.run()
        #expect(!terminal.timedOut, "last screen: \(terminal.frames.last ?? [])")
        #expect(terminal.frames.contains { $0.contains { $0.contains("refused the connection on port 22") } })
        #expect(effects.works.first == .load)
        #expect(effects.works.contains { if case .check = $0 { true } else { false } })
        #expect(effects.works.contains(.connect(ConnectionProfile(server: effects.servers[0]), knownHosts: "",
                                                keepalive: 5)))
        #expect(effects.handoffs.isEmpty)
        #expect(effects.finished && runtime.state.shouldQuit)
    }

    @Test func aHandoffRunsInTheLoopWithTheTerminalSuspended() throws {
        let terminal = ScriptedTerminal([
            (waitFor: "Checked 1 server", key: .enter),
            (waitFor: "Type a command", key: .character("x")),
            (waitFor: "> x", key: .enter),
            (waitFor: "[exit 0", key: .character("|")),
            (waitFor: "Pipe the output", key: .character("w")),
            (waitFor: "Pipe the output", key: .enter),
            (waitFor: "Piped the output into `wc -l`: exit 0.", key: .function(10)),
            (waitFor: "Session summary", key: .character("q")),
        ])
        let queue = MessageQueue(waker: terminal.waker)
        let effects = FakeEffects(queue: queue, connects: true)
        let runtime = AppRuntime(terminal: terminal, effects: effects, queue: queue, environment: [:],
                                 localUser: "me", unicode: true)
        try runtime.run()
        #expect(!terminal.timedOut, "last screen: \(terminal.frames.last ?? [])")
        #expect(effects.handoffs == [.pipe(command: "w", input: Array("one\ntwo\n".utf8))])
        #expect(effects.works.contains(.run(id: 1, command: "x")))
        #expect(effects.works.contains(.disconnect))
    }
}

