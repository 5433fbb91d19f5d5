import ArgumentParser
import Foundation
import Inventory
import Operations

/// `essh config get|set|unset|list`: the settings of the interface's Settings screen, by key, from the command line.
/// Every key, bound and format comes from Operations' one table (`Settings.fields`); nothing here lists settings.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Read and change eSSH's settings (those of the interface's Settings screen).",
        discussion: """
            Settings live in the database (--db), beside the servers; the interface and every command read them \
            from there. A value is checked as the Settings screen checks it; a refused one changes nothing and \
            exits 2, as does an unknown key. `essh config list` shows every key with its value, default and what \
            it may be.
            """,
        subcommands: [Get.self, SetValue.self, Unset.self, List.self])

    /// The help of every KEY argument (each completes from the settings table).
    static let keyHelp = ArgumentHelp("The setting's key (essh config list shows them).", valueName: "key")

    struct Get: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a setting's value (its default when unset).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: ConfigCommand.keyHelp, completion: .list(Settings.keys))
        var key: String

        func run() throws {
            let field = try ConfigCommand.field(key)
            let stored = try ConfigCommand.stored(database)
            TerminalOutput.line(field.format(Settings(stored: stored)))
        }
    }

    /// `set` (named so that Swift's `Set` stays visible in this file).
    struct SetValue: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a setting (checked as the Settings screen checks it; a refused value changes nothing).")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: ConfigCommand.keyHelp, completion: .list(Settings.keys))
        var key: String
        @Argument(help: ArgumentHelp("The new value (\"\" for an empty text setting).", valueName: "value"))
        var value: String

        func run() throws {
            let text: String
            do throws(SettingProblem) {
                text = try Settings.storedText(value, for: key)
            } catch {
                throw ConfigCommand.fail(error)
            }
            let inventory = try database.open()
            try inventory.setSetting(key, to: text)
            TerminalOutput.line("\(key) = \(text)")
        }
    }

    struct Unset: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put a setting back to its default.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: ConfigCommand.keyHelp, completion: .list(Settings.keys))
        var key: String

        func run() throws {
            let field = try ConfigCommand.field(key)
            // Nothing stored means nothing to remove: a missing database stays missing.
            if let inventory = try database.openExisting() {
                try inventory.setSetting(key, to: nil)
            }
            TerminalOutput.line("\(key) = \(field.format(Settings())) (default)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every setting with its value, its default and what it may be.")
        @OptionGroup var database: DatabaseOptions
        @Flag(help: """
            Print JSON: {"settings":[{"key","value","default","set","label","hint"}]} ("set": a value is stored).
            """)
        var json = false

        func run() throws {
            let entries = Settings.entries(stored: try ConfigCommand.stored(database))
            TerminalOutput.write(json ? try ConfigCommand.json(entries) + "\n"
                                      : ConfigCommand.table(entries, colour: TerminalOutput.colourOnStdout))
        }
    }

    /// The stored settings; none when the database does not exist yet (reading never creates it).
    static func stored(_ database: DatabaseOptions) throws -> [String: String] {
        guard let inventory = try database.openExisting() else { return [:] }
        return try inventory.allSettings()
    }

    static func field(_ key: String) throws -> SettingField {
        do throws(SettingProblem) {
            return try Settings.requireField(key)
        } catch {
            throw fail(error)
        }
    }

    /// An unknown key or a refused value: the sentence on stderr, exit status 2 (bad input, as for servers).
    static func fail(_ problem: SettingProblem) -> CommandFailure {
        CommandFailure(.badInput, problem.message)
    }

    static func table(_ entries: [SettingEntry], colour: Bool) -> String {
        var table = TextTable(headers: ["KEY", "VALUE", "DEFAULT", "SETTING"])
        for entry in entries {
            table.add([.init(text: entry.key), .init(text: entry.value.isEmpty ? "\"\"" : entry.value),
                       .init(text: entry.defaultValue.isEmpty ? "\"\"" : entry.defaultValue),
                       .init(text: "\(entry.label) (\(entry.hint))")])
        }
        return table.render(colour: colour)
    }

    struct EntryJSON: Encodable {
        var key, value, `default`: String
        var set: Bool
        var label, hint: String
    }

    struct ListJSON: Encodable {
        var settings: [EntryJSON]
    }

    static func json(_ entries: [SettingEntry]) throws -> String {
        let rows = entries.map {
            EntryJSON(key: $0.key, value: $0.value, default: $0.defaultValue, set: $0.stored != nil, label: $0.label,
                      hint: $0.hint)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(ListJSON(settings: rows)), as: UTF8.self)
    }
}
