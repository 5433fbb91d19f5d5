import Foundation
import SSH
import Testing
import TUIKit
@testable import AppCore

/// The vault in the interface: the passphrase question (asked once, again with the reason, Esc), the idle lock on
/// the clock's ticks, the lock key, the offers to remember or update a typed password (No by default), and the
/// identity in the session's header.
@Suite("App: the vault")
struct VaultUpdateTests {
    static func passphrase(id: Int, attempt: Int = 1, problem: String? = nil, server: String? = "web1")
        -> Message
    {
        .prompt(PromptRequest(id: id, kind: .vaultPassphrase(attempt: attempt, problem: problem,
                                                             purpose: .login(server: server))))
    }

    /// Connecting to web1 (Enter on the first server) with the vault's question on screen.
    static func askedWhileConnecting() -> AppState {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, passphrase(id: 7))
        return state
    }

    @Test func thePassphraseIsAskedMaskedAndTheTypedAnswerGoesBackOnce() throws {
        var state = Self.askedWhileConnecting()
        let prompt = try #require(state.prompt)
        #expect(prompt.title == "Vault locked")
        #expect(prompt.labels == ["Vault passphrase:"])
        #expect(prompt.input.isMasked)
        #expect(prompt.message.contains("web1"))
        Fixtures.type(&state, "correct horse")
        #expect(!Fixtures.screen(state).joined().contains("correct"), "the passphrase is never drawn")
        let effects = Fixtures.keys(&state, .enter)
        #expect(effects == [.answer(id: 7, .text(["correct horse"]))])
        #expect(state.prompt == nil)
        // Unlocked (the edge says so): nothing more is asked; the header says it is open.
        _ = Update.update(&state, .vault(.used(at: Fixtures.now)))
        #expect(state.vault.unlocked)
    }

    @Test func aWrongPassphraseIsAskedAgainWithTheReason() throws {
        var state = Self.askedWhileConnecting()
        Fixtures.type(&state, "wrong")
        _ = Fixtures.keys(&state, .enter)
        _ = Update.update(&state, Self.passphrase(id: 8, attempt: 2, problem: "Wrong passphrase."))
        let prompt = try #require(state.prompt)
        #expect(prompt.title == "Wrong vault passphrase")
        #expect(prompt.problem == "Wrong passphrase. Try again (2 of 3).")
        #expect(prompt.input.text.isEmpty, "the wrong answer is not kept")
        #expect(Fixtures.screen(state).contains { $0.contains("Wrong passphrase. Try again (2 of 3).") })
    }

    /// A vault that would not open: the login asks the server's password instead, and the reason stays in view
    /// under that question and in the dialog if the login then fails.
    @Test func whyTheVaultWasNotUsedIsShownWhileConnectingAndWithTheFailure() throws {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        let why = "The vault /v.age cannot be opened: the age file's payload is damaged. It was left as it is."
        _ = Update.update(&state, .vault(.failed(why)))
        _ = Update.update(&state, .prompt(PromptRequest(id: 3, kind: .password(user: "root", host: "web1",
                                                                                attempt: 1))))
        #expect(Fixtures.screen(state).contains { $0.contains("The vault /v.age cannot be opened") },
                "\(Fixtures.screen(state))")
        _ = Fixtures.keys(&state, .escape)
        _ = Update.update(&state, .connectFailed("Permission denied."))
        let dialog = try #require(state.dialog)
        #expect(dialog.message.hasSuffix("Permission denied. (\(why))"), "\(dialog.message)")
    }

    @Test func escapeDeclinesWithNoAnswerSoTheLoginAsksTheServersPassword() {
        var state = Self.askedWhileConnecting()
        Fixtures.type(&state, "half")
        let effects = Fixtures.keys(&state, .escape)
        #expect(effects == [.answer(id: 7, .text(nil))])
        #expect(state.prompt == nil)
        #expect(state.connecting != nil, "the login goes on")
    }

    @Test func theQuestionBeforeRememberingIsNotDroppedWithAGivenUpConnection() {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter, .escape)
        #expect(Update.isAbandoned(state))
        let login = Update.update(&state, Self.passphrase(id: 3))
        #expect(login == [.answer(id: 3, .text(nil))], "a given-up login's question is answered no")
        let remember = Message.prompt(PromptRequest(id: 4, kind: .vaultPassphrase(
            attempt: 1, problem: nil, purpose: .remember(server: "web1"))))
        #expect(Update.update(&state, remember).isEmpty)
        #expect(state.prompt?.id == 4)
    }

    @Test func aFailedConnectionClosesItsQuestionButNotTheOneBeforeRemembering() {
        var state = Self.askedWhileConnecting()
        _ = Update.update(&state, .connectFailed("Refused."))
        #expect(state.prompt == nil)

        var remembering = VaultUpdateTests.connectedWithTypedPassword()
        _ = Update.update(&remembering, .prompt(PromptRequest(id: 9, kind: .vaultPassphrase(
            attempt: 1, problem: nil, purpose: .remember(server: "web1")))))
        _ = Update.update(&remembering, .connectFailed("Refused."))
        #expect(remembering.prompt?.id == 9, "its worker still waits for the answer")
    }

    // MARK: the idle lock and the lock key

    static func unlocked(minutes: String? = nil) -> AppState {
        var state = AppState(size: Size(width: 80, height: 24), now: Fixtures.now, localUser: "me")
        var settings: [String: String] = [:]
        if let minutes { settings[VaultState.idleLockSetting] = minutes }
        _ = Update.update(&state, .loaded(servers: Fixtures.servers, checks: Fixtures.checks, settings: settings))
        _ = Update.update(&state, .checkFinished(error: nil, at: Fixtures.now))
        _ = Update.update(&state, .vault(.status(exists: true, unlocked: false)))
        _ = Update.update(&state, .vault(.used(at: Fixtures.now)))
        return state
    }

    @Test func theVaultLocksAfterTheIdleTimeWithoutUse() {
        var state = Self.unlocked()
        #expect(state.vaultIdleLockMinutes == 15, "the default")
        #expect(state.tickInterval == .seconds(1), "the clock runs while the vault is open")
        #expect(Update.update(&state, .tick(Fixtures.now.addingTimeInterval(14 * 60 + 59))) == [])
        #expect(state.vault.unlocked)
        // A use restarts the clock.
        _ = Update.update(&state, .vault(.used(at: Fixtures.now.addingTimeInterval(600))))
        #expect(Update.update(&state, .tick(Fixtures.now.addingTimeInterval(15 * 60))) == [])
        let effects = Update.update(&state, .tick(Fixtures.now.addingTimeInterval(600 + 15 * 60)))
        #expect(effects == [.vault(.lock)])
        #expect(!state.vault.unlocked)
        #expect(state.notice == "Vault locked: unused for 15 min.")
        #expect(Fixtures.screen(state)[0].contains("vault locked"))
        // Locked, later ticks do nothing more.
        #expect(Update.update(&state, .tick(Fixtures.now.addingTimeInterval(7200))) == [])
    }

    @Test func theIdleTimeIsTheSettingsAndOutOfRangeIsTheDefault() {
        var state = Self.unlocked(minutes: "2")
        #expect(Update.update(&state, .tick(Fixtures.now.addingTimeInterval(120))) == [.vault(.lock)])
        // 0 is outside the setting's 1 to 1440: the default 15, so an unlocked vault always locks in the end.
        var zero = Self.unlocked(minutes: "0")
        #expect(Update.update(&zero, .tick(Fixtures.now.addingTimeInterval(14 * 60))) == [])
        #expect(Update.update(&zero, .tick(Fixtures.now.addingTimeInterval(15 * 60 + 1))) == [.vault(.lock)])
        #expect(VaultState.idleLockMinutes([VaultState.idleLockSetting: "soon"]) == 15, "unreadable: the default")
    }

    @Test func theLockKeyLocksAtOnceAndIsInTheHelp() {
        var state = Self.unlocked()
        #expect(Fixtures.screen(state)[0].contains("vault unlocked"))
        #expect(Fixtures.keys(&state, .character("L")) == [.vault(.lock)])
        #expect(!state.vault.unlocked)
        #expect(state.notice == "Vault locked: the next stored secret asks for the passphrase.")
        #expect(Fixtures.keys(&state, .character("L")) == [], "locked already: nothing to do")
        #expect(state.notice == "The vault is locked.")
        #expect(ServersAction.table.bindings.contains { $0.action == .lockVault && $0.keys == [.character("L")] })
        Fixtures.keys(&state, .character("?"))
        #expect(Fixtures.screen(state).joined().contains("Lock the vault now") || helpLists("Lock the vault now"))
    }

    /// Whether the Servers screen's help lists `text` somewhere (it may be below the first page).
    func helpLists(_ text: String) -> Bool {
        ServersAction.table.bindings.contains { $0.description.contains(text) }
    }

    @Test func withoutAVaultTheLockKeySaysHowToMakeOne() {
        var state = Fixtures.loaded()
        _ = Update.update(&state, .vault(.status(exists: false, unlocked: false)))
        #expect(Fixtures.keys(&state, .character("L")) == [])
        #expect(state.notice == "No vault yet: run essh vault init to keep passwords there.")
        #expect(!Fixtures.screen(state)[0].contains("vault"), "no vault, no word in the title")
    }

    // MARK: remembering a typed password

    static func connectedWithTypedPassword() -> AppState {
        var state = Fixtures.loaded()
        Fixtures.keys(&state, .enter)
        _ = Update.update(&state, .connected(os: .linux, auth: .password, at: Fixtures.now))
        return state
    }

    @Test func aTypedPasswordIsOfferedToTheVaultWithNoAsTheDefault() throws {
        var state = Self.connectedWithTypedPassword()
        _ = Update.update(&state, .vault(.login(.typed(server: "web1"), vaultExists: true)))
        let dialog = try #require(state.dialog)
        #expect(dialog.title == "Remember this password in the vault?")
        #expect(dialog.buttons == ["No", "Yes"])
        #expect(dialog.selected == 0, "No is the default")
        // Enter takes the default: the held copy is forgotten, nothing stored.
        #expect(Fixtures.keys(&state, .enter) == [.vault(.forgetTyped)])
        #expect(state.dialog == nil)
    }

    @Test func yesRemembersAndEscForgets() {
        var state = Self.connectedWithTypedPassword()
        _ = Update.update(&state, .vault(.login(.typed(server: "web1"), vaultExists: true)))
        #expect(Fixtures.keys(&state, .character("y")) == [.vault(.rememberTyped(server: "web1"))])
        _ = Update.update(&state, .vault(.remembered(server: "web1")))
        #expect(state.notice == "The password of web1 is in the vault now.")

        var other = Self.connectedWithTypedPassword()
        _ = Update.update(&other, .vault(.login(.typed(server: "web1"), vaultExists: true)))
        #expect(Fixtures.keys(&other, .escape) == [.vault(.forgetTyped)])
    }

    @Test func aRefusedVaultPasswordBringsTheOfferToUpdateIt() throws {
        var state = Self.connectedWithTypedPassword()
        _ = Update.update(&state, .vault(.login(.typedAfterVaultRejected(server: "web1"), vaultExists: true)))
        let dialog = try #require(state.dialog)
        #expect(dialog.title == "Update the vault?")
        #expect(dialog.message.contains("Update the vault with the password you typed?"))
        #expect(dialog.selected == 0)
        #expect(Fixtures.keys(&state, .right, .enter) == [.vault(.rememberTyped(server: "web1"))])
    }

    @Test func withoutAVaultTheOfferIsALineSaidOnce() {
        var state = Self.connectedWithTypedPassword()
        let effects = Update.update(&state, .vault(.login(.typed(server: "web1"), vaultExists: false)))
        #expect(effects == [.vault(.forgetTyped)])
        #expect(state.dialog == nil)
        #expect(state.notice == "No vault yet: run essh vault init to keep passwords there.")
        state.notice = nil
        _ = Update.update(&state, .vault(.login(.typed(server: "web1"), vaultExists: false)))
        #expect(state.notice == nil, "said once per run")
    }

    @Test func anOfferForASessionThatIsGoneOrAnotherServersIsDropped() {
        var state = Fixtures.loaded()
        #expect(Update.update(&state, .vault(.login(.typed(server: "web1"), vaultExists: true))) == [.vault(.forgetTyped)])
        #expect(state.dialog == nil)
        var other = Self.connectedWithTypedPassword()
        #expect(Update.update(&other, .vault(.login(.typed(server: "db-main"), vaultExists: true)))
                    == [.vault(.forgetTyped)])
        #expect(other.dialog == nil)
    }

    @Test func aFailureIsSaidOnOneSanitisedLine() {
        var state = Fixtures.loaded()
        _ = Update.update(&state, .vault(.failed("Nothing was stored: the disk is full.\u{1b}[2J")))
        #expect(state.notice?.contains("\u{1b}") == false)
        #expect(state.notice?.hasPrefix("Nothing was stored: the disk is full.") == true)
    }

    // MARK: the identity in the header

    @Test func theHeaderSaysWhichIdentityLoggedIn() {
        #expect(SessionView.identityLabel(.keyFile(path: "/home/me/.ssh/id_ed25519"), vault: false, home: "/home/me")
                    == "key ~/.ssh/id_ed25519")
        #expect(SessionView.identityLabel(.keyFile(path: "/etc/keys/deploy"), vault: false, home: "/home/me")
                    == "key /etc/keys/deploy")
        #expect(SessionView.identityLabel(.keyFile(path: "/home/meg/k"), vault: false, home: "/home/me")
                    == "key /home/meg/k", "only the home folder itself becomes ~")
        #expect(SessionView.identityLabel(.keyFile(path: "/work/checkouts/essh/.test-servers/keys/id_ed25519"),
                                          vault: false, home: "/home/me") == "key …/keys/id_ed25519",
                "a long path outside home: its folder and name")
        #expect(SessionView.identityLabel(.agent(comment: "me@laptop\u{1b}]0;x\u{07}"), vault: false, home: "")?
                    .contains("\u{1b}") == false)
        #expect(SessionView.identityLabel(.password, vault: false, home: "") == "password")
        #expect(SessionView.identityLabel(.password, vault: true, home: "") == "password (vault)")
        #expect(SessionView.identityLabel(.keyboardInteractive, vault: true, home: "") == "keyboard-interactive (vault)")
        #expect(SessionView.identityLabel(nil, vault: false, home: "") == nil)
    }

    @Test func aVaultLoginSaysSoInTheHeaderAndNarrowRowsKeepTheClock() {
        var state = Self.connectedWithTypedPassword()
        _ = Update.update(&state, .vault(.login(.vault, vaultExists: true)))
        #expect(state.dialog == nil, "nothing to offer")
        #expect(Fixtures.screen(state)[0].contains("password (vault)"))
        _ = Update.update(&state, .input(.resize(Size(width: 44, height: 12))))
        let narrow = Fixtures.screen(state)[0]
        #expect(narrow.contains("connected 00:00:00"))
        #expect(!narrow.contains("password (vault)"), "cut or left out on a short row")
    }
}
