import Foundation
import Inventory
import Operations
import Testing
import TUIKit
@testable import AppCore

/// The Tunnels screen's pure core: opened with u, its keys as effects for the tunnel worker, the add / edit form
/// checked by the -L/-R/-D rule, the worker's figures drawn, autostart on the first load.
@Suite struct TunnelsUpdateTests {
    static let db1 = TunnelID(server: "db1", forward: "L:5432:localhost:5432")
    static let socks = TunnelID(server: "db1", forward: "D:1080")

    static func servers(autostart: Bool = false) -> [Server] {
        var db1 = Fixtures.server(1, "db1", host: "10.1.2.3")
        db1.forwards = ["L:5432:localhost:5432", "D:1080"]
        db1.autostart = autostart
        return [db1, Fixtures.server(2, "web1", host: "10.0.0.5")]
    }

    static func onTunnels(autostart: Bool = false) -> AppState {
        var state = AppState(size: Size(width: 100, height: 24), now: Fixtures.now, localUser: "me")
        _ = Update.update(&state, .loaded(servers: servers(autostart: autostart), checks: [:], settings: [:]))
        _ = Update.update(&state, .input(.key(.character("u"))))
        return state
    }

    static func press(_ state: inout AppState, _ keys: Key...) -> [Effect] {
        keys.flatMap { Update.update(&state, .input(.key($0))) }
    }

    static func screen(_ state: AppState) -> String {
        var buffer = Buffer(size: state.size)
        _ = AppView.render(state, into: &buffer)
        return buffer.lines().joined(separator: "\n")
    }

    @Test func uOpensTheTunnelsScreenListingEverySavedTunnelStopped() {
        let state = Self.onTunnels()
        #expect(state.screen.kind == .tunnels)
        #expect(state.tunnelRows.map(\.status.id) == [Self.db1, Self.socks])
        #expect(state.tunnelRows.allSatisfy { $0.status.state == .stopped })
        let text = Self.screen(state)
        #expect(text.contains("eSSH — Tunnels"))
        #expect(text.contains("L:5432:localhost:5432") && text.contains("stopped"))
        #expect(text.contains("0 running · 2 saved"))
    }

    @Test func startStopRestartAreWorkForTheTunnelWorker() {
        var state = Self.onTunnels()
        #expect(Self.press(&state, .character("s")) == [.work(.startTunnel(Self.db1))])
        #expect(Self.press(&state, .enter) == [.work(.startTunnel(Self.db1))], "Enter starts a stopped one")
        _ = Update.update(&state, .tunnels([TunnelStatus(id: Self.db1, state: .up)]))
        #expect(Self.press(&state, .enter) == [.work(.stopTunnel(Self.db1))], "and stops a running one")
        #expect(Self.press(&state, .character("x")) == [.work(.stopTunnel(Self.db1))])
        #expect(Self.press(&state, .character("r")) == [.work(.restartTunnel(Self.db1))])
        #expect(Self.press(&state, .down, .character("s")) == [.work(.startTunnel(Self.socks))])
        #expect(Self.press(&state, .escape).isEmpty)
        #expect(state.screen.kind == .servers)
        #expect(state.runningTunnels == 1, "tunnels keep running on other screens")
    }

    @Test func theWorkersFiguresAreDrawnLive() {
        var state = Self.onTunnels()
        _ = Update.update(&state, .tunnels([
            TunnelStatus(id: Self.db1, state: .up, openConnections: 2, connections: 5, bytesOut: 1_500,
                         bytesIn: 2_500_000, rateOut: 0, rateIn: 125_000, listening: "127.0.0.1:5432"),
            TunnelStatus(id: Self.socks, state: .reconnecting(seconds: 4, attempt: 3, reason: "the connection was "
                                                                + "lost: The connection to db1 was closed.")),
        ]))
        let text = Self.screen(state)
        #expect(text.contains("up, on 127.0.0.1:5432"), "\(text)")
        #expect(text.contains("1.5 kB") && text.contains("2.5 MB") && text.contains("125.0 kB/s"), "\(text)")
        #expect(text.contains("reconnecting in 4 s (attempt 3)"), "\(text)")
        #expect(text.contains("2 running · 2 saved"))
        // The selected tunnel's line says the rest.
        #expect(text.contains("db1 L:5432:localhost:5432: up · 5 connections so far"), "\(text)")
        _ = Self.press(&state, .down)
        #expect(Self.screen(state).contains("reconnecting in 4 s (attempt 3) — the connection was lost"))
    }

    @Test func addChecksTheForwardByTheRuleOfLRAndDThenSavesTheServersList() {
        var state = Self.onTunnels()
        _ = Self.press(&state, .character("a"))
        guard case .tunnels(let screen) = state.screen, let editor = screen.editor else {
            Issue.record("no form")
            return
        }
        #expect(editor.server.text == "db1" && editor.focus == 1)
        for c in "L:8080" { _ = Self.press(&state, .character(c)) }
        #expect(Self.press(&state, .enter).isEmpty)
        #expect(Self.screen(state).contains("-L 8080: a target is missing"), "\(Self.screen(state))")
        _ = Self.press(&state, .ctrl("u"))
        for c in "r:9000:localhost:3000" { _ = Self.press(&state, .character(c)) }
        let effects = Self.press(&state, .enter)
        #expect(effects == [.work(.saveForwards(
            server: "db1", ForwardChanges(replacingWith: ["L:5432:localhost:5432", "D:1080", "R:9000:localhost:3000"]),
            autostart: nil, done: "Saved R:9000:localhost:3000 on db1 (s starts it)."))])
        guard case .tunnels(let after) = state.screen else { return }
        #expect(after.editor == nil)
        #expect(Update.update(&state, .forwardsSaved(notice: "Saved.")) == [.load])
        #expect(state.notice == "Saved.")
    }

    @Test func addRefusesAServerNotSavedAndATunnelSavedAlready() {
        var state = Self.onTunnels()
        _ = Self.press(&state, .character("a"), .tab, .ctrl("u"))
        for c in "nope" { _ = Self.press(&state, .character(c)) }
        _ = Self.press(&state, .tab)
        for c in "D:1080" { _ = Self.press(&state, .character(c)) }
        #expect(Self.press(&state, .enter).isEmpty)
        #expect(Self.screen(state).contains("No saved server is named nope."))
        _ = Self.press(&state, .tab, .ctrl("u"))
        for c in "db1" { _ = Self.press(&state, .character(c)) }
        #expect(Self.press(&state, .enter).isEmpty)
        #expect(Self.screen(state).contains("db1 has D:1080 already."))
        _ = Self.press(&state, .escape)
        guard case .tunnels(let screen) = state.screen else { return }
        #expect(screen.editor == nil)
    }

    @Test func editReplacesTheTunnelInPlaceAndStopsTheOldOne() {
        var state = Self.onTunnels()
        _ = Self.press(&state, .character("e"), .ctrl("u"))
        for c in "L:5433:localhost:5432" { _ = Self.press(&state, .character(c)) }
        #expect(Self.press(&state, .enter) == [
            .work(.forgetTunnel(Self.db1)),
            .work(.saveForwards(server: "db1", ForwardChanges(replacingWith: ["L:5433:localhost:5432", "D:1080"]),
                                autostart: nil, done: "Saved L:5433:localhost:5432 on db1 (s starts it).")),
        ])
    }

    @Test func deleteForgetsTheTunnelAndSavesTheRest() {
        var state = Self.onTunnels()
        #expect(Self.press(&state, .character("d")) == [
            .work(.forgetTunnel(Self.db1)),
            .work(.saveForwards(server: "db1", ForwardChanges(replacingWith: ["D:1080"]), autostart: nil,
                                done: "Deleted L:5432:localhost:5432 of db1.")),
        ])
    }

    @Test func autostartTunnelsStartOnTheFirstLoadOnlyAndAToggles() {
        var state = AppState(size: Size(width: 100, height: 24), now: Fixtures.now, localUser: "me")
        let first = Update.update(&state, .loaded(servers: Self.servers(autostart: true), checks: [:], settings: [:]))
        #expect(first.contains(.work(.startTunnel(Self.db1))) && first.contains(.work(.startTunnel(Self.socks))))
        let again = Update.update(&state, .loaded(servers: Self.servers(autostart: true), checks: [:], settings: [:]))
        #expect(!again.contains { if case .work(.startTunnel) = $0 { return true } else { return false } })
        let none = AppState(size: Size(width: 100, height: 24), now: Fixtures.now, localUser: "me")
        var off = none
        #expect(!Update.update(&off, .loaded(servers: Self.servers(), checks: [:], settings: [:])).contains {
            if case .work(.startTunnel) = $0 { return true } else { return false }
        })
        _ = Self.press(&state, .character("u"))
        #expect(Self.press(&state, .character("A")) == [.work(.saveForwards(
            server: "db1", ForwardChanges(), autostart: false,
            done: "db1's tunnels no longer start with eSSH (A: on)."))])
        #expect(Self.screen(state).contains("db1 *"), "autostart servers are starred")
    }

    @Test func theHelpListsTheTunnelsKeysAndTheServersKeyU() {
        var state = Self.onTunnels()
        _ = Self.press(&state, .character("?"))
        let help = HelpOverlay.lines(state).map(\.description).joined(separator: " ")
        #expect(help.contains("Restart the selected tunnel"))
        #expect(help.contains("Back to the servers (the tunnels keep running)"))
        #expect(ServersAction.table.action(for: .character("u")) == .tunnels)
    }
}
