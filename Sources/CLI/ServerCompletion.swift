import ArgumentParser
import Foundation
import Inventory

/// Shell completion of saved server names and tags (bash, zsh and fish alike): the scripts swift-argument-parser
/// generates (`essh --generate-completion-script SHELL`) call `essh ---completion …` for these arguments, and the
/// answer is read from the database the command line names (`--db PATH` among the words typed, else $ESSH_DB, else
/// the default). Completion never creates a database and prints nothing but candidates.
enum ServerCompletion {
    /// Saved server names (`servers show`, `servers rm`, `servers edit`, DEST).
    static let names = CompletionKind.custom { words, _, prefix in candidates(words, prefix) { $0.names } }

    /// Tags of saved servers (`--tag`).
    static let tags = CompletionKind.custom { words, _, prefix in candidates(words, prefix) { $0.tags } }

    /// `essh check`'s selectors: saved names and `tag:TAG`.
    static let selectors = CompletionKind.custom { words, _, prefix in
        candidates(words, prefix) { $0.names + $0.tags.map { "tag:" + $0 } }
    }

    /// What the database holds, for completion.
    struct Saved {
        var names: [String]
        var tags: [String]
    }

    static func candidates(_ words: [String], _ prefix: String, _ pick: (Saved) -> [String]) -> [String] {
        guard let saved = saved(database: database(in: words)) else { return [] }
        return pick(saved).filter { $0.hasPrefix(prefix) }
    }

    /// The names and tags stored at `path`; nil when there is no database there or it cannot be read.
    static func saved(database path: String) -> Saved? {
        guard FileManager.default.fileExists(atPath: path),
              let inventory = try? Inventory(path: path, busyTimeout: 1),
              let servers = try? inventory.servers() else { return nil }
        return Saved(names: servers.map(\.name), tags: Array(Set(servers.flatMap(\.tags))).sorted())
    }

    /// The database the words being completed name: `--db PATH` or `--db=PATH`, else the environment's.
    static func database(in words: [String]) -> String {
        var option: String?
        for (i, word) in words.enumerated() {
            if word == "--db", i + 1 < words.count { option = words[i + 1] }
            if word.hasPrefix("--db=") { option = String(word.dropFirst(5)) }
        }
        return DatabaseLocation.resolve(option: option, environment: ProcessInfo.processInfo.environment)
    }
}
