import Fleet
import Foundation
import SSH

/// An executor with a canned behaviour per target name, for runner tests without a network. It waits in small
/// steps so the runner's cancellation (deadline or cancel()) stops it as it would stop a real session.
struct FakeExecutor: FleetExecutor {
    enum Behaviour: Sendable {
        /// Writes the output after `delay` seconds and exits with `status`.
        case exit(status: Int32, stdout: String = "", stderr: String = "", delay: Double = 0)
        /// Fails to connect with this error.
        case connectError(SSHError)
        /// Never answers (until cancelled).
        case hang
        /// Never answers while connecting (until cancelled, which is then a connect failure).
        case hangConnecting
        /// Blocks for `seconds` whatever happens, as a DNS lookup does.
        case stuck(seconds: Double)
    }

    var behaviours: [String: Behaviour]
    /// Counts how many run at once, to check the bound.
    let gauge = Gauge()
    /// `name connectTimeout` for every call, to check what the runner passed.
    let calls = Recorder()

    func execute(_ target: FleetTarget, command: String, connectTimeout: Double, deadline: Date,
                 cancel: Cancellation, output: (SSH.OutputStream, UnsafeRawBufferPointer) -> Void)
        throws(FleetFailure) -> CommandExit
    {
        gauge.enter()
        defer { gauge.leave() }
        calls.add("\(target.name) \(connectTimeout)")
        switch behaviours[target.name] ?? .hang {
        case .connectError(let error):
            throw FleetFailure(.connect, error)
        case .hang:
            try wait(seconds: 3600, cancel: cancel)
            return CommandExit(status: 0, signal: nil)
        case .hangConnecting:
            do throws(FleetFailure) { try wait(seconds: 3600, cancel: cancel) } catch {
                throw FleetFailure(.connect, SSHError(.cancelled, "", "Connecting was cancelled."))
            }
            return CommandExit(status: 0, signal: nil)
        case .stuck(let seconds):
            usleep(UInt32(seconds * 1_000_000))
            throw FleetFailure(.connect, SSHError(.nameNotFound, "", "late"))
        case .exit(let status, let stdout, let stderr, let delay):
            try wait(seconds: delay, cancel: cancel)
            Array(stdout.utf8).withUnsafeBytes { if !$0.isEmpty { output(.stdout, $0) } }
            Array(stderr.utf8).withUnsafeBytes { if !$0.isEmpty { output(.stderr, $0) } }
            return CommandExit(status: status, signal: nil)
        }
    }

    private func wait(seconds: Double, cancel: Cancellation) throws(FleetFailure) {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if cancel.isCancelled { throw FleetFailure(.command, SSHError(.cancelled, "", "The command was cancelled.")) }
            usleep(2_000)
        }
    }
}

/// How many calls are inside the executor now, and the most ever.
final class Gauge: @unchecked Sendable {
    private let lock = NSLock()
    private var now = 0
    private(set) var peak = 0

    func enter() {
        lock.lock()
        now += 1
        peak = max(peak, now)
        lock.unlock()
    }

    func leave() {
        lock.lock()
        now -= 1
        lock.unlock()
    }

    /// How many calls are inside now.
    var inside: Int {
        lock.lock()
        defer { lock.unlock() }
        return now
    }

    var maximum: Int {
        lock.lock()
        defer { lock.unlock() }
        return peak
    }
}

/// Collects callbacks from the runner's threads.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func add(_ s: String) {
        lock.lock()
        items.append(s)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

func target(_ name: String) -> FleetTarget {
    FleetTarget(name: name, options: ConnectOptions(host: "127.0.0.1", user: "nobody", knownHostsFile: "/dev/null"))
}
