import Foundation
import Testing
@testable import Vault

@Suite struct VaultDocumentTests {
    @Test func roundTripsThroughJSONWithSecretsAsText() throws {
        var document = VaultDocument()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        document.set(.password, Secret("pa55 wörd"), id: "srv-1", name: "db1", now: now)
        document.set(.keyPassphrase("/root/.ssh/id_ed25519"), Secret("key pass"), id: "srv-1", name: "db1", now: now)
        document.set(.answer("Verification code: "), Secret("123456"), id: "srv-2", name: "web", now: now)
        let json = document.encoded()
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains("\"format\" : 1"))
        #expect(text.contains("pa55 wörd") && text.contains("/root/.ssh/id_ed25519"), "readable after age -d")
        let back = try VaultDocument.decode(json)
        #expect(back == document)
        #expect(back.entries["srv-1"]?.kinds == [.password, .keyPassphrase("/root/.ssh/id_ed25519")])
        #expect(back.entries["srv-2"]?.answers["Verification code: "]?.text == "123456")
        #expect(back.entries["srv-1"]?.created == now)
    }

    @Test func setKeepsCreatedAndMovesChangedAndName() {
        var document = VaultDocument()
        document.set(.password, Secret("a"), id: "x", name: "old", now: Date(timeIntervalSince1970: 1))
        document.set(.password, Secret("b"), id: "x", name: "new", now: Date(timeIntervalSince1970: 2))
        let entry = document.entries["x"]
        #expect(entry?.created == Date(timeIntervalSince1970: 1) && entry?.changed == Date(timeIntervalSince1970: 2))
        #expect(entry?.name == "new" && entry?.password?.text == "b")
    }

    @Test func aHandWrittenEntryNeedsOnlyNameSecretAndCreated() throws {
        let json = #"{"format": 1, "entries": {"x": {"name": "db1", "password": "p", "created": "2026-11-24T10:00:00Z"}}}"#
        let entry = try #require(try VaultDocument.decode(Array(json.utf8)).entries["x"])
        #expect(entry.password?.text == "p" && entry.keyPassphrases.isEmpty && entry.answers.isEmpty)
        #expect(entry.changed == entry.created)
    }

    @Test func aNewerFormatIsRefusedClearly() {
        let json = Array(#"{"format": 2, "entries": {}, "somethingNew": true}"#.utf8)
        #expect(throws: VaultError.newerFormat(2, known: 1)) { try VaultDocument.decode(json) }
        let message = VaultError.newerFormat(2, known: 1).message
        #expect(message.contains("version 2") && message.contains("Update eSSH"))
    }

    @Test func notAVaultDocumentIsRefused() {
        for text in ["", "[]", #"{"entries": {}}"#, #"{"format": 0, "entries": {}}"#, #"{"format": 1}"#] {
            #expect(throws: VaultError.self, "\(text)") { try VaultDocument.decode(Array(text.utf8)) }
        }
    }

    @Test func secretsAreWipedWhenTakenOver() {
        var bytes = Array("hunter2".utf8)
        let secret = Secret(taking: &bytes)
        #expect(bytes.isEmpty)
        #expect(secret.text == "hunter2" && secret.count == 7)
        var copy = secret.copyBytes()
        Wipe.bytes(&copy)
        #expect(copy.isEmpty && secret.text == "hunter2")
    }
}
