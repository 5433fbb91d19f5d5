@testable import Operations
import Testing

@Suite struct SettingsTests {
    @Test func everySettingRoundTripsThroughItsText() {
        var settings = Settings()
        for (key, text) in [("ui.parse", "off"), ("check.interval", "30"), ("check.timeout", "0.5"),
                            ("session.scrollback", "500"), ("ui.autoconnect", "web1"),
                            ("mail.recipient", "ops@example.org"), ("mail.sendmail", "/usr/bin/sm"),
                            ("mail.from", "me@example.org"), ("mail.max_inline", "2000"),
                            ("ssh.known_hosts", "~/kh"), ("fleet.parallel", "8"), ("fleet.timeout", "2.5"),
                            ("ui.mouse", "on"), ("ui.sort", "connected"), ("ui.group", "on")] {
            #expect(settings.apply(text, to: key) == nil, "\(key)")
            #expect(settings.text(for: key) == text, "\(key)")
        }
        #expect(Settings(stored: settings.stored) == settings)
        #expect(Set(settings.stored.keys) == Set(Settings.fields.map(\.key)))
    }

    @Test func boundsAndFormatsAreCheckedWithASentenceSayingWhatToType() {
        var settings = Settings()
        #expect(settings.apply("maybe", to: "ui.parse") == "Type on or off.")
        #expect(settings.apply("0", to: "fleet.timeout") == "Give seconds from 1 to 86400.")
        #expect(settings.apply("86401", to: "fleet.timeout") == "Give seconds from 1 to 86400.")
        #expect(settings.apply("1025", to: "fleet.parallel") == "Give a number of servers from 1 to 1024.")
        #expect(settings.apply("sendmail", to: "mail.sendmail") == "Give an absolute path, e.g. /usr/sbin/sendmail.")
        #expect(settings.apply("kh", to: "ssh.known_hosts") == "Give an absolute path (or ~/…), or leave it empty.")
        #expect(settings.apply("a b@", to: "mail.recipient") != nil)
        #expect(settings.apply("1", to: "no.such") == "Unknown setting.")
        #expect(settings == Settings(), "a refused value changes nothing")
    }

    @Test func theInterfacesListAndMouseSettingsDefaultToNameOneListAndTheTerminalsMouse() {
        var settings = Settings()
        #expect(settings.serverOrder == .name && !settings.groupByTag && !settings.mouse)
        #expect(settings.apply(" Status ", to: "ui.sort") == nil && settings.serverOrder == .status)
        #expect(settings.apply("age", to: "ui.sort") == "Type name, status or connected.")
        #expect(Settings.field("ui.sort")?.hint == "name, status or connected")
        #expect(ServerOrder.name.next == .status && ServerOrder.status.next == .connected
            && ServerOrder.connected.next == .name)
    }

    @Test func storedValuesThatDoNotParseKeepTheirDefaults() {
        let settings = Settings(stored: ["fleet.timeout": "soon", "fleet.parallel": " 12 ", "ui.parse": "no"])
        #expect(settings.fleetTimeout == 60 && settings.fleetParallel == 12 && !settings.parse)
        #expect(Settings.number(60) == "60" && Settings.number(2.5) == "2.5")
    }

    @Test func settingsNamedByKeyAreCheckedAndNormalisedByTheSameTable() throws {
        #expect(try Settings.storedText(" 30 ", for: "check.interval") == "30")
        #expect(try Settings.storedText("yes", for: "ui.parse") == "on")
        #expect(try Settings.storedText("2.50", for: "fleet.timeout") == "2.5")
        #expect(try Settings.storedText("", for: "mail.recipient") == "")
        #expect(throws: SettingProblem(kind: .invalidValue, key: "fleet.timeout",
                                       message: "fleet.timeout cannot be '0': Give seconds from 1 to 86400.")) {
            try Settings.storedText("0", for: "fleet.timeout")
        }
        do {
            _ = try Settings.storedText("5", for: "timeout")
            Issue.record("an unknown key should be refused")
        } catch {
            #expect(error.kind == .unknownKey)
            #expect(error.message.contains("Did you mean check.timeout or fleet.timeout?"))
            for key in Settings.keys { #expect(error.message.contains(key)) }
        }
        #expect(Settings.suggestions(for: "fleet.paralel") == ["fleet.parallel"])
    }

    @Test func entriesShowTheValueInForceTheDefaultAndWhatIsStored() {
        let entries = Settings.entries(stored: ["fleet.parallel": "8", "fleet.timeout": "soon"])
        #expect(entries.map(\.key) == Settings.keys)
        let parallel = entries.first { $0.key == "fleet.parallel" }
        #expect(parallel?.value == "8" && parallel?.defaultValue == "64" && parallel?.stored == "8")
        let timeout = entries.first { $0.key == "fleet.timeout" }
        #expect(timeout?.value == "60" && timeout?.stored == "soon", "an unreadable value leaves the default in force")
        #expect(entries.first { $0.key == "ui.parse" }?.stored == nil)
    }

    @Test func mailSettingsComeFromTheSameTable() {
        let mail = MailSettings(stored: ["mail.recipient": "a@example.org", "mail.max_inline": "5000"])
        #expect(mail.recipient == "a@example.org" && mail.maxInline == 5000 && mail.sendmailPath == "/usr/sbin/sendmail")
    }
}
