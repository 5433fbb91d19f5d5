import Foundation
import SSH
import Testing
import TestSupport
import TUIKit
@testable import AppCore

/// The vault's screens compared with reviewed files in Golden/ (ESSH_UPDATE_GOLDEN=1 rewrites them): the passphrase
/// question (first and after a wrong one), the offer to remember a typed password, and the session header naming
/// the identity that logged in.
@Suite("App screens: the vault, golden")
struct VaultGoldenTests {
    let directory = Golden.directory(besides: #filePath)

    @Test func vaultPassphraseAt80x24() throws {
        var state = VaultUpdateTests.askedWhileConnecting()
        Fixtures.type(&state, "hunter2")
        let screen = Fixtures.screen(state)
        #expect(!screen.joined().contains("hunter2"))
        try Golden.check(screen, named: "vault-passphrase-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "vault-passphrase-80x24.style", in: directory)
        _ = Fixtures.keys(&state, .enter)
        _ = Update.update(&state, VaultUpdateTests.passphrase(id: 8, attempt: 2, problem: "Wrong passphrase."))
        try Golden.check(Fixtures.screen(state), named: "vault-passphrase-again-80x24", in: directory)
    }

    @Test func rememberOfferAt80x24() throws {
        var state = VaultUpdateTests.connectedWithTypedPassword()
        _ = Update.update(&state, .vault(.login(.typed(server: "web1"), vaultExists: true)))
        try Golden.check(Fixtures.screen(state), named: "vault-remember-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "vault-remember-80x24.style", in: directory)
    }

    @Test func sessionHeaderWithTheIdentityAt80x24And56x12() throws {
        var state = Fixtures.loaded()
        state.home = "/home/me"
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .connected(os: .linux, auth: .keyFile(path: "/home/me/.ssh/id_ed25519"),
                                             at: Fixtures.now))
        _ = Update.update(&state, .shellMode(.persistent, notice: nil))
        _ = Update.update(&state, .tick(Fixtures.now.addingTimeInterval(83)))
        try Golden.check(Fixtures.screen(state), named: "session-identity-80x24", in: directory)
        _ = Update.update(&state, .input(.resize(Size(width: 56, height: 12))))
        try Golden.check(Fixtures.screen(state), named: "session-identity-56x12", in: directory)
    }
}
