import Operations
import Testing

@Suite struct SettingsTests {
    @Test func everySettingRoundTripsThroughItsText() {
        var settings = Settings()
        for (key, text) in [("ui.parse", "off"), ("check.interval", "30"), ("check.timeout", "0.5"),
                            ("session.scrollback", "500"), ("ui.autoconnect", "web1"),
                            ("mail.recipient", "ops@example.org"), ("mail.sendmail", "/usr/bin/sm"),
                            ("mail.from", "me@example.org"), ("mail.max_inline", "2000"),
                            ("ssh.known_hosts", "~/kh"), ("fleet.parallel", "8"), ("fleet.timeout", "2.5")] {
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

    @Test func storedValuesThatDoNotParseKeepTheirDefaults() {
        let settings = Settings(stored: ["fleet.timeout": "soon", "fleet.parallel": " 12 ", "ui.parse": "no"])
        #expect(settings.fleetTimeout == 60 && settings.fleetParallel == 12 && !settings.parse)
        #expect(Settings.number(60) == "60" && Settings.number(2.5) == "2.5")
    }

    @Test func mailSettingsComeFromTheSameTable() {
        let mail = MailSettings(stored: ["mail.recipient": "a@example.org", "mail.max_inline": "5000"])
        #expect(mail.recipient == "a@example.org" && mail.maxInline == 5000 && mail.sendmailPath == "/usr/sbin/sendmail")
    }
}
