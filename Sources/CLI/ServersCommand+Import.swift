import ArgumentParser
import Basics
import Foundation
import Forwarding
import Inventory
import Operations
import SSH

extension ServersCommand {
    /// `essh servers import FILE`: the servers of `servers export --json` (or `servers list --json`) saved back.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save the servers of a JSON export (essh servers export --json) with every field: address, "
                + "login, key, OS, tags, note, algorithm lists, jump hosts, saved tunnels, dates. A saved server of the same name is replaced; "
                + "when one entry is wrong, nothing is saved.")
        @OptionGroup var database: DatabaseOptions
        @Argument(help: "The JSON file; - for standard input.")
        var file: String

        func run() throws {
            let path = file == "-" ? nil : file
            let bytes = try InputFile.read(path, action: "read the servers to import")
            let servers = try ServerJSONImport.servers(from: bytes, source: path ?? "standard input")
            let summary = try database.open().restoreServers(servers)
            TerminalOutput.write("""
                Imported \(path ?? "standard input"): \(summary.added.count) added, \(summary.updated.count) \
                replaced, \(summary.unchanged.count) unchanged.

                """)
        }
    }
}

/// The JSON `servers export --json` writes, read back into servers. Pure. Only `name` and `host` are required (a
/// file written by hand may leave the rest out: port 22, the agent, `auto`, no tags, no note, dates of now); fields
/// this version does not know (`last_check`) are ignored.
enum ServerJSONImport {
    private struct File: Decodable {
        var servers: [Entry]
    }

    private struct Entry: Decodable {
        var name: String
        var host: String
        var port: Int?
        var user: String?
        var auth: String?
        var key: String?
        var os: String?
        var tags: [String]?
        var note: String?
        var created: Date?
        var updated: Date?
        var lastConnected: Date?
        var algorithms: [String: String]?
        var jump: String?
        var forwards: [String]?
        var autostart: Bool?
        var credential: String?
        var uid: String?
        var lastIdentity: String?

        enum CodingKeys: String, CodingKey {
            case name, host, port, user, auth, key, os, tags, note, created, updated, algorithms, jump
            case forwards, autostart, credential, uid
            case lastConnected = "last_connected", lastIdentity = "last_identity"
        }
    }

    /// The servers in `bytes`, or why not (naming `source` and the entry).
    static func servers(from bytes: [UInt8], source: String, now: Date = Date()) throws -> [Server] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let file: File
        do {
            file = try decoder.decode(File.self, from: Data(bytes))
        } catch let error as DecodingError {
            throw CommandFailure(.badInput, "\(source) is not a server export: \(describe(error)). "
                                 + "Nothing was imported; essh servers export --json writes one.")
        }
        return try file.servers.enumerated().map { index, entry in
            func bad(_ what: String) -> CommandFailure {
                CommandFailure(.badInput, "\(source), server \(index + 1) (\(ControlCharacters.visible(entry.name))): "
                               + "\(what). Nothing was imported.")
            }
            let auth: AuthMethod
            if let word = entry.auth {
                guard let method = AuthMethod(rawValue: word) else {
                    throw bad("auth '\(ControlCharacters.visible(word))' is not key, agent or password")
                }
                auth = method
            } else {
                auth = entry.key == nil ? .agent : .key
            }
            var os = ServerOS.auto
            if let word = entry.os {
                guard let known = ServerOS(rawValue: word) else {
                    throw bad("os '\(ControlCharacters.visible(word))' is not "
                              + ServerOS.allCases.map(\.rawValue).joined(separator: ", "))
                }
                os = known
            }
            var algorithms = AlgorithmChoices()
            for (keyword, value) in entry.algorithms ?? [:] {
                guard let kind = AlgorithmKind.allCases.first(where: { $0.keyword.lowercased() == keyword.lowercased() })
                else {
                    throw bad("algorithms has '\(ControlCharacters.visible(keyword))', not one of "
                              + AlgorithmKind.allCases.map(\.keyword).joined(separator: ", "))
                }
                switch kind {
                case .kex: algorithms.kex = value
                case .hostKey: algorithms.hostKeys = value
                case .cipher: algorithms.ciphers = value
                case .mac: algorithms.macs = value
                }
            }
            if let problem = AlgorithmSelection.problems(algorithms, serverName: entry.name).first {
                throw bad(problem.message)
            }
            // The rule essh servers edit --forward and -L/-R/-D follow.
            let forwards: [String]
            do throws(ForwardError) {
                forwards = try SavedTunnels.normalised(entry.forwards ?? [])
            } catch {
                throw bad("forwards: " + ControlCharacters.visible(error.message))
            }
            // The spelling only: a command's program is looked for when it runs, on the machine that runs it.
            var credential = CredentialSource.ask
            switch CredentialSource.parse(entry.credential ?? "") {
            case .success(let source): credential = source
            case .failure(let problem): throw bad("credential: " + problem.message)
            }
            let uid = entry.uid.flatMap { UUID(uuidString: $0) != nil ? $0.lowercased() : nil } ?? ""
            let created = entry.created ?? now
            return Server(id: nil, name: entry.name, host: entry.host, port: entry.port ?? 22, user: entry.user,
                          auth: auth, keyPath: entry.key, os: os, tags: entry.tags ?? [], note: entry.note ?? "",
                          createdAt: created, updatedAt: entry.updated ?? created, lastConnectedAt: entry.lastConnected,
                          algorithms: algorithms, jump: JumpList.isDirect(entry.jump ?? "") ? "" : entry.jump ?? "",
                          forwards: forwards, autostart: entry.autostart ?? false, credential: credential, uid: uid,
                          lastIdentity: entry.lastIdentity)
        }
    }

    /// A decoding error as a phrase: where in the file and what was wrong.
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let parts = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
            let text = parts.joined()
            return text.isEmpty ? "the top level" : String(text.drop(while: { $0 == "." }))
        }
        switch error {
        case .typeMismatch(_, let context): return "\(path(context)) has the wrong type (\(context.debugDescription))"
        case .valueNotFound(_, let context): return "\(path(context)) is missing"
        case .keyNotFound(let key, let context):
            let place = path(context)
            return (place == "the top level" ? "" : place + ".") + key.stringValue + " is missing"
        case .dataCorrupted(let context): return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
