import Foundation
import Testing
import TestSupport
import TUIKit
@testable import AppCore

/// The key install's box compared with reviewed files in Golden/ (ESSH_UPDATE_GOLDEN=1 rewrites them): while it
/// runs, its end with the switch question over it, and a failure.
@Suite("Servers screen: key install, golden")
struct KeyInstallGoldenTests {
    let directory = Golden.directory(besides: #filePath)

    @Test func runningAt80x24() throws {
        let state = KeyInstallUpdateTests.installed(Array(KeyInstallUpdateTests.steps.prefix(3)))
        try Golden.check(Fixtures.screen(state), named: "key-install-running-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "key-install-running-80x24.style", in: directory)
    }

    @Test func installedWithTheSwitchQuestionAt80x24() throws {
        let state = KeyInstallUpdateTests.installed(KeyInstallUpdateTests.steps
                                                    + [.installed(offer: .keyFile("/home/me/.ssh/id_ed25519"))])
        try Golden.check(Fixtures.screen(state), named: "key-install-switch-80x24", in: directory)
    }

    @Test func failedAt80x24() throws {
        let state = KeyInstallUpdateTests.installed([
            .progress("The key: SHA256:abc (/home/me/.ssh/id_ed25519.pub)"),
            .failed("Could not log in to web1: the server refused the password (3 tries)."),
        ])
        try Golden.check(Fixtures.screen(state), named: "key-install-failed-80x24", in: directory)
        try Golden.check(Fixtures.styles(state), named: "key-install-failed-80x24.style", in: directory)
    }
}
