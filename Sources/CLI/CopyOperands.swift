import Basics
import Transfer

/// What `essh cp`'s operands ask for: the direction, which server (or which fleet), the sources and DEST, as bytes.
/// Worked out from the words alone (no I/O), by scp's reading of each word (`TransferEndpoint`) and these rules: one
/// side is on a server and the other here; every source is on the same side (and the same server); `:PATH` is the
/// same path on every server the selectors pick, and then the first word is the selectors unless `--all`, `--tag` or
/// `--hosts-file` pick the servers.
package struct CopyOperands: Sendable, Equatable {
    /// One server (`web1:/etc/hosts`) or each server of a fleet (`:/etc/hosts`).
    package enum Servers: Sendable, Equatable {
        /// The server part as typed before the path (`admin@10.0.0.5:2222`, `web1`).
        case one(String)
        /// The selector words (`web1,web2`, `web[01-20]`); empty when the options pick the servers.
        case fleet(selectors: [String])
    }

    package var servers: Servers
    package var upload: Bool
    /// On the sending side: local paths for an upload, remote ones for a download.
    package var sources: [[UInt8]]
    /// On the receiving side; an empty remote path is the login folder.
    package var destination: [UInt8]

    /// A command line that cannot be copied: a usage error (64) with a sentence saying how to write it.
    package struct Problem: Error, Sendable, Equatable {
        package let message: String
    }

    /// Reads `words` (the operands' bytes, in order). `optionsPickServers`: `--all`, `--tag` or `--hosts-file` were
    /// given.
    package init(_ words: [[UInt8]], optionsPickServers: Bool) throws(Problem) {
        var words = words
        let fleetWritten = words.contains { $0.first == UInt8(ascii: ":") }
        var selectors: [String] = []
        if fleetWritten && !optionsPickServers, let first = words.first {
            guard let text = String(validating: first, as: UTF8.self), first.first != UInt8(ascii: ":") else {
                throw Problem(message: "A fleet copy (a :PATH operand) needs its servers: --all, --tag TAG, "
                              + "--hosts-file FILE, or the first word NAME,NAME,... (essh cp web1,web2 ./app.conf "
                              + ":/etc/app/).")
            }
            selectors = [text]
            words.removeFirst()
        }
        guard words.count >= 2 else {
            throw Problem(message: words.isEmpty
                ? "Give what to copy and where: essh cp SRC... DEST (web1:/etc/hosts ., ./site web1:/srv/)."
                : "Give where to copy to after the source: essh cp SRC... DEST.")
        }
        var endpoints: [TransferEndpoint] = []
        for word in words {
            do throws(TransferEndpoint.Problem) {
                endpoints.append(try TransferEndpoint(parsing: word))
            } catch {
                throw Problem(message: error.message)
            }
        }
        let sources = endpoints.dropLast(), destination = endpoints.last!
        if fleetWritten || optionsPickServers {
            try self.init(fleet: Array(sources), destination, selectors: selectors)
        } else {
            try self.init(one: Array(sources), destination)
        }
    }

    private init(fleet sources: [TransferEndpoint], _ destination: TransferEndpoint,
                 selectors: [String]) throws(Problem) {
        let example = " (essh cp --tag web ./app.conf :/etc/app/ pushes, essh cp --tag web :/etc/os-release "
            + "./collected/ pulls into ./collected/SERVER/)."
        if sources.contains(where: Self.isOneServer) || Self.isOneServer(destination) {
            throw Problem(message: "A fleet copy writes the servers' side as :PATH, the same path on each server; "
                          + "SERVER:PATH names one server" + example)
        }
        if case .fleet(let path) = destination {
            let local = sources.compactMap(Self.localPath)
            guard local.count == sources.count else {
                throw Problem(message: "Both sides are on the servers: copy from here to :PATH, or from :PATH to "
                              + "here" + example)
            }
            self.init(servers: .fleet(selectors: selectors), upload: true, sources: local, destination: path)
        } else if case .local(let path) = destination {
            let remote = sources.compactMap(Self.fleetPath)
            guard remote.count == sources.count else {
                throw Problem(message: "Neither side is on the servers: with --all, --tag or --hosts-file write the "
                              + "servers' side as :PATH" + example)
            }
            self.init(servers: .fleet(selectors: selectors), upload: false, sources: remote, destination: path)
        } else {
            throw Problem(message: "A fleet copy goes one way" + example)
        }
    }

    private init(one sources: [TransferEndpoint], _ destination: TransferEndpoint) throws(Problem) {
        let servers = Set(sources.compactMap(Self.server))
        switch destination {
        case .remote(let server, let path):
            if !servers.isEmpty {
                throw Problem(message: "Both sides are on servers: essh cp copies between here and one server; copy "
                              + "to here first, then on.")
            }
            let local = sources.compactMap(Self.localPath)
            self.init(servers: .one(server), upload: true, sources: local, destination: path)
        case .local(let path):
            guard let server = servers.first else {
                throw Problem(message: "Neither side is on a server: write the server's side as SERVER:PATH "
                              + "(web1:/etc/hosts, ./site web1:/srv/); use cp for copies on this machine.")
            }
            guard servers.count == 1, sources.allSatisfy({ Self.server($0) != nil }) else {
                throw Problem(message: "The sources are on more than one side: every source is on the same server "
                              + "(web1:a web1:b .), or every one is here.")
            }
            let remote = sources.compactMap { source -> [UInt8]? in
                if case .remote(_, let path) = source { return path }
                return nil
            }
            self.init(servers: .one(server), upload: false, sources: remote, destination: path)
        case .fleet:
            // A :PATH word makes a fleet copy (`init(_:optionsPickServers:)`); said, should that rule change.
            throw Problem(message: "A :PATH operand is a fleet copy: say which servers with --all, --tag TAG or "
                          + "NAME,NAME,... first.")
        }
    }

    private init(servers: Servers, upload: Bool, sources: [[UInt8]], destination: [UInt8]) {
        self.servers = servers
        self.upload = upload
        self.sources = sources
        self.destination = destination
    }

    private static func isOneServer(_ endpoint: TransferEndpoint) -> Bool { server(endpoint) != nil }

    private static func server(_ endpoint: TransferEndpoint) -> String? {
        if case .remote(let server, _) = endpoint { return server }
        return nil
    }

    private static func localPath(_ endpoint: TransferEndpoint) -> [UInt8]? {
        if case .local(let path) = endpoint { return path }
        return nil
    }

    private static func fleetPath(_ endpoint: TransferEndpoint) -> [UInt8]? {
        if case .fleet(let path) = endpoint { return path }
        return nil
    }

    /// The operands as this process received them, byte for byte: Swift's `CommandLine.arguments` replaces bytes
    /// that are not UTF-8, and a file name need not be UTF-8. `parsed` are the operands as ArgumentParser gave
    /// them; `argv` the raw words after the program's name; `valueOptions` the options that take the next word. The
    /// positional words of `argv` after `subcommand` are matched to `parsed` in order (each must read as its
    /// parsed text); when they do not line up, the parsed text is used.
    package static func rawWords(parsed: [String], argv: [[UInt8]], subcommand: String,
                                 valueOptions: Set<String>) -> [[UInt8]] {
        let fallback = parsed.map { Array($0.utf8) }
        guard let start = argv.firstIndex(of: Array(subcommand.utf8)) else { return fallback }
        var positional: [[UInt8]] = []
        var i = start + 1
        var afterTerminator = false
        while i < argv.count {
            let word = argv[i]
            i += 1
            if afterTerminator || word.first != UInt8(ascii: "-") || word == Array("-".utf8) {
                positional.append(word)
                continue
            }
            if word == Array("--".utf8) {
                afterTerminator = true
                continue
            }
            let text = String(decoding: word, as: UTF8.self)
            if text.hasPrefix("--") {
                if !text.contains("="), valueOptions.contains(text) { i += 1 }
            } else if text.count == 2, valueOptions.contains(text) {
                i += 1
            }
            // A cluster of short flags (-rp), or a short option with its value attached (-P2222): one word.
        }
        guard positional.count == parsed.count,
              zip(positional, parsed).allSatisfy({ String(decoding: $0, as: UTF8.self) == $1 })
        else { return fallback }
        return positional
    }
}
