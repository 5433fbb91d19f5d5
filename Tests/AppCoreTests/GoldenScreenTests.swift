import Fleet
import SSH
import Foundation
import Testing
import TestSupport
import TUIKit
@testable import AppCore

/// Whole screens compared with reviewed files in Golden/ (ESSH_UPDATE_GOLDEN=1 rewrites them): the text, and in
/// `NAME.style` which cells are reverse, bold, dim or coloured, so a lost highlight fails as a lost word does.
@Suite("App screens: golden")
struct GoldenScreenTests {
    let directory = Golden.directory(besides: #filePath)

    @Test func serversAt80x24() throws {
        var state = Fixtures.loaded()
        _ = Update.update(&state, .checkResult(serverId: 4, status: .refused, latencyMs: nil, at: Fixtures.now))
        try Golden.check(Fixtures.screen(state), named: "servers-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "servers-80x24.style", in: directory)
    }

    @Test func serversFilteredAt200x50() throws {
        var state = Fixtures.loaded(size: Size(width: 200, height: 50))
        _ = Update.update(&state, .checkFinished(error: nil, at: Fixtures.now))
        Fixtures.keys(&state, .character("/"))
        Fixtures.type(&state, "prod")
        try Golden.check(Fixtures.screen(state), named: "servers-filtered-200x50", in: directory)
        try Golden.check(Fixtures.styles(state), named: "servers-filtered-200x50.style", in: directory)
    }

    @Test func serversAt40x10AndTooSmallBelowIt() throws {
        var state = Fixtures.loaded(size: Size(width: 40, height: 10))
        try Golden.check(Fixtures.screen(state), named: "servers-40x10", in: directory)
        try Golden.check(Fixtures.styles(state), named: "servers-40x10.style", in: directory)
        _ = Update.update(&state, .input(.resize(Size(width: 39, height: 10))))
        try Golden.check(Fixtures.screen(state), named: "too-small-39x10", in: directory)
        try Golden.check(Fixtures.styles(state), named: "too-small-39x10.style", in: directory)
    }

    @Test func formWithErrorsAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("a"))
        Fixtures.type(&state, "box")
        Fixtures.keys(&state, .tab, .tab, .ctrl("u"))
        Fixtures.type(&state, "99999")
        Fixtures.keys(&state, .enter)
        try Golden.check(Fixtures.screen(state), named: "form-errors-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "form-errors-80x24.style", in: directory)
    }

    /// A credential command whose program is not on PATH, said under the Password field.
    @Test func formWithACredentialErrorAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("a"))
        Fixtures.type(&state, "db1")
        Fixtures.keys(&state, .tab)
        Fixtures.type(&state, "10.0.0.7")
        for _ in 0..<5 { Fixtures.keys(&state, .tab) }
        Fixtures.keys(&state, .ctrl("u"))
        Fixtures.type(&state, "command:no-such-essh-program show db1")
        Fixtures.keys(&state, .enter)
        try Golden.check(Fixtures.screen(state), named: "form-credential-error-80x24", in: directory)
    }

    @Test func sessionAt80x24() throws {
        var state = Fixtures.inSession()
        Fixtures.type(&state, "echo héllo")
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .output(id: 1, bytes: Array("héllo\n".utf8)))
        _ = Update.update(&state, .commandFinished(id: 1, status: 0, signal: nil,
                                                   at: Fixtures.now.addingTimeInterval(83.04)))
        Fixtures.type(&state, "uname -a")
        try Golden.check(Fixtures.screen(state), named: "session-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "session-80x24.style", in: directory)
    }

    @Test func summaryAt80x24() throws {
        var state = Fixtures.inSession()
        Fixtures.keys(&state, .function(10))
        try Golden.check(Fixtures.screen(state), named: "summary-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "summary-80x24.style", in: directory)
    }

    @Test func sessionSearchAt80x24() throws {
        var state = SessionSearchTests.withOutput()
        Fixtures.keys(&state, .ctrl("f"))
        Fixtures.type(&state, "needle")
        Fixtures.keys(&state, .enter, .ctrl("p"))
        try Golden.check(Fixtures.screen(state), named: "session-search-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "session-search-80x24.style", in: directory)
    }

    @Test func summaryAfterQuickConnectAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.quickConnect(&state, "root@lab.example:2222")
        _ = Update.update(&state, .connected(os: .linux, auth: .password, at: Fixtures.now))
        Fixtures.keys(&state, .function(10))
        try Golden.check(Fixtures.screen(state), named: "summary-unsaved-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "summary-unsaved-80x24.style", in: directory)
    }

    @Test func hostKeyDialogAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .prompt(PromptRequest(id: 1, kind: .hostKey(
            host: "10.0.0.5", port: 22, type: "ssh-ed25519",
            fingerprint: "SHA256:bJ3LNtJTCJpP/yMw20jC5iBLz/rpJO4GOlsz2u82ibs"))))
        try Golden.check(Fixtures.screen(state), named: "hostkey-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "hostkey-80x24.style", in: directory)
    }

    @Test func connectingAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .connectStage("Verifying the host key"))
        try Golden.check(Fixtures.screen(state), named: "connecting-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "connecting-80x24.style", in: directory)
    }

    /// Through jump hosts: each hop with its stage above the spinner, the ones passed said so, still in view
    /// behind a question about a hop's host key.
    @Test func hopsWhileConnectingAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .connectHop(HopProgress(hop: 0, hops: 3, name: "bastion", stage: "Handshake")))
        _ = Update.update(&state, .connectHop(HopProgress(hop: 1, hops: 3, name: "gw2", stage: "Logging in (agent)")))
        _ = Update.update(&state, .connectStage("Logging in (agent)"))
        let screen = Fixtures.screen(state)
        #expect(screen.contains { $0.contains("1. bastion (jump host): logged in, passed through") })
        #expect(screen.contains { $0.contains("2. gw2 (jump host): Logging in (agent)") })
        #expect(screen.contains { $0.contains("3. …: waiting") })
        try Golden.check(screen, named: "connecting-hops-80x24", in: directory)
        _ = Update.update(&state, .connectHop(HopProgress(hop: 2, hops: 3, name: "web1",
                                                          stage: "Verifying the host key")))
        _ = Update.update(&state, .prompt(PromptRequest(id: 1, kind: .hostKey(
            host: "10.0.0.5", port: 22, type: "ssh-ed25519",
            fingerprint: "SHA256:bJ3LNtJTCJpP/yMw20jC5iBLz/rpJO4GOlsz2u82ibs"))))
        let asked = Fixtures.screen(state)
        #expect(asked.contains { $0.contains("2. gw2 (jump host): logged in, passed through") })
        #expect(asked.contains { $0.contains("3. web1: Verifying the host key") })
        try Golden.check(asked, named: "connecting-hops-hostkey-80x24", in: directory)
    }

    /// The server's banner above the spinner (escapes neutralised), still readable behind the password prompt.
    @Test func bannerWhileConnectingAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .connectBanner("Authorised use only.\r\n\u{1B}[31mAll access is logged.\u{1B}[0m\r\n\r\n"))
        _ = Update.update(&state, .connectStage("Logging in (password)"))
        let screen = Fixtures.screen(state)
        #expect(screen.contains { $0.contains("Authorised use only.") })
        #expect(screen.contains { $0.contains("All access is logged.") })
        #expect(!screen.joined().contains("\u{1B}"))
        try Golden.check(screen, named: "connecting-banner-80x24", in: directory)
        _ = Update.update(&state, .prompt(PromptRequest(id: 1, kind: .password(user: "admin", host: "web1", attempt: 1))))
        try Golden.check(Fixtures.screen(state), named: "connecting-banner-password-80x24", in: directory)
    }

    @Test func maskedPasswordPromptAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .prompt(PromptRequest(id: 1, kind: .password(user: "admin", host: "web1", attempt: 1))))
        Fixtures.type(&state, "s3cret")
        let screen = Fixtures.screen(state)
        #expect(!screen.joined().contains("s3cret"), "a password is never drawn")
        try Golden.check(screen, named: "password-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "password-80x24.style", in: directory)
    }

    @Test func settingsAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("s"))
        try Golden.check(Fixtures.screen(state), named: "settings-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "settings-80x24.style", in: directory)
    }

    @Test func helpOfServersAndSessionAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("?"))
        try Golden.check(Fixtures.screen(state), named: "help-servers-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "help-servers-80x24.style", in: directory)
        var session = Fixtures.inSession()
        Fixtures.keys(&session, .function(1))
        try Golden.check(Fixtures.screen(session), named: "help-session-80x24", in: directory)
        try Golden.check(Fixtures.styles(session), named: "help-session-80x24.style", in: directory)
    }

    /// At 40x10 the question, the field and the hint keep their rows and the message (the fingerprint) scrolls.
    @Test func hostKeyQuestionAt40x10ScrollsItsMessageAboveTheQuestion() throws {
        var state = Fixtures.loaded(size: Size(width: 40, height: 10))
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .prompt(PromptRequest(id: 1, kind: .hostKey(
            host: "10.0.0.5", port: 22, type: "ssh-ed25519",
            fingerprint: "SHA256:bJ3LNtJTCJpP/yMw20jC5iBLz/rpJO4GOlsz2u82ibs"))))
        let first = Fixtures.screen(state).joined(separator: "\n")
        #expect(first.contains("Trust it?") && first.contains("Enter: answer"), "\(first)")
        try Golden.check(Fixtures.screen(state), named: "hostkey-40x10", in: directory)
        try Golden.check(Fixtures.styles(state), named: "hostkey-40x10.style", in: directory)
        Fixtures.keys(&state, .down, .down)
        let scrolled = Fixtures.screen(state).joined(separator: "\n")
        #expect(scrolled.contains("SHA256:bJ3LN") && scrolled.contains("Trust it?"), "\(scrolled)")
        try Golden.check(Fixtures.screen(state), named: "hostkey-40x10-scrolled", in: directory)
        // Scrolling stops at the message's end; typing still goes to the field.
        Fixtures.keys(&state, .down, .down, .down, .down, .down, .down, .down, .down)
        #expect(Fixtures.screen(state).contains { $0.contains("│ you. ") })
        #expect(state.prompt?.top ?? 0 < 8)
    }

    @Test func helpAt40x10() throws {
        var state = Fixtures.loaded(size: Size(width: 40, height: 10))
        Fixtures.keys(&state, .character("?"), .down)
        try Golden.check(Fixtures.screen(state), named: "help-servers-40x10", in: directory)
        try Golden.check(Fixtures.styles(state), named: "help-servers-40x10.style", in: directory)
    }

    @Test func serversGroupedByTagAt80x24() throws {
        var state = Fixtures.loaded()
        _ = Update.update(&state, .checkFinished(error: nil, at: Fixtures.now))
        Fixtures.keys(&state, .character("T"), .down, .down, .enter, .character("o"))
        try Golden.check(Fixtures.screen(state), named: "servers-grouped-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "servers-grouped-80x24.style", in: directory)
    }

    @Test func fleetRunningAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("*"), .character("x"))
        Fixtures.type(&state, "for i in 1 2 3 4 5; do echo line $i from $(hostname); sleep 1; done")
        Fixtures.keys(&state, .enter)
        let id = try #require(state.fleetRun?.id)
        _ = Update.update(&state, .fleetStarted(id: id, index: 0))
        _ = Update.update(&state, .fleetStarted(id: id, index: 1))
        let lines = Array("line 1 from web1\nline 2 from web1\n".utf8)
        _ = Update.update(&state, .fleetOutput(id: id, index: 0, .stdout, lines))
        _ = Update.update(&state, .fleetResult(id: id, index: 3, FleetResult(
            name: "win-build", status: .unreachable, duration: 0.1, error: "10.0.0.9 refused the connection.")))
        _ = Update.update(&state, .tick(Fixtures.now.addingTimeInterval(2.4)))
        try Golden.check(Fixtures.screen(state), named: "fleet-running-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "fleet-running-80x24.style", in: directory)
    }

    @Test func quickConnectAt80x24() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .character("n"))
        try Golden.check(Fixtures.screen(state), named: "quick-connect-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "quick-connect-80x24.style", in: directory)
    }
}
