import Basics
import Foundation
import Inventory
import Operations
import SSH
import TUIKit
@testable import AppCore

/// Fixed servers, times and helpers shared by the App tests.
enum Fixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func server(_ id: Int64, _ name: String, host: String, port: Int = 22, user: String? = "admin",
                       os: ServerOS = .linux, tags: [String] = [], lastConnected: Date? = nil) -> Server {
        Server(id: id, name: name, host: host, port: port, user: user, auth: .agent, keyPath: nil, os: os, tags: tags,
               note: "", createdAt: now, updatedAt: now, lastConnectedAt: lastConnected)
    }

    static let servers = [
        server(1, "web1", host: "10.0.0.5", tags: ["prod", "web"], lastConnected: now.addingTimeInterval(-300)),
        server(2, "db-main", host: "db.example.com", port: 2222, user: "postgres", tags: ["prod"]),
        server(3, "café-ünï", host: "2001:db8::7", os: .bsd, tags: ["lab"],
               lastConnected: now.addingTimeInterval(-86_400 * 30)),
        server(4, "win-build", host: "192.168.1.20", user: nil, os: .windows),
    ]

    static let checks: [Int64: CheckResult] = [
        1: CheckResult(serverId: 1, status: .online, latencyMs: 1.4, banner: nil, error: nil, checkedAt: now),
        2: CheckResult(serverId: 2, status: .timeout, latencyMs: nil, banner: nil, error: nil, checkedAt: now),
        3: CheckResult(serverId: 3, status: .online, latencyMs: 42.2, banner: nil, error: nil, checkedAt: now),
    ]

    /// A state with the servers loaded (the start-up check already under way).
    static func loaded(size: Size = Size(width: 80, height: 24)) -> AppState {
        var state = AppState(size: size, now: now, localUser: "me")
        _ = Update.update(&state, .loaded(servers: servers, checks: checks, settings: [:]))
        return state
    }

    /// A state in a session with web1, connected 83 seconds ago.
    static func inSession(size: Size = Size(width: 80, height: 24)) -> AppState {
        var state = loaded(size: size)
        _ = Update.update(&state, .checkFinished(error: nil, at: now))
        _ = Update.update(&state, .input(.key(.enter)))
        _ = Update.update(&state, .connected(os: .linux, at: now))
        _ = Update.update(&state, .tick(now.addingTimeInterval(83)))
        return state
    }

    /// Quick connect to `text` (n, the text, Enter), with the store worker's answer: a host typed, nothing from a
    /// saved server or ~/.ssh/config. Returns the effects of that answer (the connection).
    @discardableResult
    static func quickConnect(_ state: inout AppState, _ text: String) -> [Effect] {
        keys(&state, .character("n"))
        type(&state, text)
        keys(&state, .enter)
        let destination = (try? Destination(parsing: text)) ?? Destination(host: text)
        let resolution = ConnectionProfile.Resolution(profile: ConnectionProfile(destination: destination),
                                                      destination: destination,
                                                      origin: "not a saved server or a Host in ~/.ssh/config",
                                                      notes: [])
        return Update.update(&state, .destinationResolved(resolution))
    }

    @discardableResult
    static func keys(_ state: inout AppState, _ keys: Key...) -> [Effect] {
        keys.flatMap { Update.update(&state, .input(.key($0))) }
    }

    @discardableResult
    static func type(_ state: inout AppState, _ text: String) -> [Effect] {
        text.flatMap { Update.update(&state, .input(.key(.character($0)))) }
    }

    static func screen(_ state: AppState) -> [String] {
        var buffer = Buffer(size: state.size)
        _ = AppView.render(state, into: &buffer)
        return buffer.lines()
    }

    /// The screen's styles: one letter per cell (space for plain), then what each letter stands for.
    static func styles(_ state: AppState) -> [String] {
        var buffer = Buffer(size: state.size)
        _ = AppView.render(state, into: &buffer)
        return buffer.styleMap()
    }
}
