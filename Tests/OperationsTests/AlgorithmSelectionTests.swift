import Foundation
import Inventory
import Operations
import SSH
import Testing

@Suite struct AlgorithmSelectionTests {
    /// A small world, so every expected list is written out in full.
    let supported = Algorithms(kex: ["curve25519-sha256", "diffie-hellman-group14-sha256",
                                     "diffie-hellman-group14-sha1"],
                               hostKeys: ["ssh-ed25519", "rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"],
                               ciphers: ["chacha20-poly1305@openssh.com", "aes256-ctr", "aes128-ctr", "aes256-cbc",
                                         "aes128-cbc", "3des-cbc"],
                               macs: ["hmac-sha2-256", "hmac-sha1", "hmac-md5"])
    let defaults = Algorithms(kex: ["curve25519-sha256"], hostKeys: ["ssh-ed25519", "rsa-sha2-512"],
                              ciphers: ["chacha20-poly1305@openssh.com", "aes256-ctr"], macs: ["hmac-sha2-256"])

    func ciphers(_ text: String, on list: [String]? = nil) throws(AlgorithmProblem) -> [String] {
        try AlgorithmSelection.apply(text, to: list ?? defaults.ciphers, kind: .cipher, source: .option,
                                     supported: supported)
    }

    @Test func theSyntaxReadsAsOpenSSHs() {
        typealias C = AlgorithmSelection.Change
        #expect(C("aes128-ctr,aes256-ctr") == .replace(["aes128-ctr", "aes256-ctr"]))
        #expect(C("+aes128-cbc") == .append(["aes128-cbc"]))
        #expect(C("-chacha20-poly1305@openssh.com,aes256-ctr")
                    == .remove(["chacha20-poly1305@openssh.com", "aes256-ctr"]))
        #expect(C("^aes128-ctr") == .prepend(["aes128-ctr"]))
        #expect(C("^aes128-ctr").patterns == ["aes128-ctr"])
    }

    @Test func aPlainListReplacesInItsOwnOrder() throws {
        #expect(try ciphers("aes128-ctr,chacha20-poly1305@openssh.com")
                    == ["aes128-ctr", "chacha20-poly1305@openssh.com"])
        #expect(try ciphers("aes128-ctr,aes128-ctr") == ["aes128-ctr"], "a name once")
    }

    @Test func plusAppendsMinusRemovesCaretPutsFirst() throws {
        #expect(try ciphers("+aes128-cbc") == ["chacha20-poly1305@openssh.com", "aes256-ctr", "aes128-cbc"])
        #expect(try ciphers("+aes256-ctr,3des-cbc") == ["chacha20-poly1305@openssh.com", "aes256-ctr", "3des-cbc"],
                "what is there already stays where it is")
        #expect(try ciphers("-chacha20-poly1305@openssh.com") == ["aes256-ctr"])
        #expect(try ciphers("-aes128-cbc") == defaults.ciphers, "removing what is not offered changes nothing")
        #expect(try ciphers("^aes256-ctr") == ["aes256-ctr", "chacha20-poly1305@openssh.com"])
        #expect(try ciphers("^3des-cbc") == ["3des-cbc", "chacha20-poly1305@openssh.com", "aes256-ctr"])
    }

    @Test func patternsMatchInTheSupportedOrder() throws {
        #expect(try ciphers("+*-cbc") == ["chacha20-poly1305@openssh.com", "aes256-ctr", "aes256-cbc", "aes128-cbc",
                                          "3des-cbc"])
        #expect(try ciphers("aes*") == ["aes256-ctr", "aes128-ctr", "aes256-cbc", "aes128-cbc"])
        #expect(try ciphers("-aes???-ctr", on: ["aes256-ctr", "aes128-ctr", "3des-cbc"]) == ["3des-cbc"])
    }

    @Test func anUnknownNameIsRefusedNamingItAndWhatIsSupported() {
        for text in ["+aes128cbc", "aes128cbc", "-aes128cbc", "^aes128cbc", "aes128-ctr,aes128cbc"] {
            let problem = #expect(throws: AlgorithmProblem.self) { try ciphers(text) }
            #expect(problem?.reason == .unknown("aes128cbc"), "\(text)")
        }
        let problem = #expect(throws: AlgorithmProblem.self) { try ciphers("+aes128cbc") }
        #expect(problem?.message == """
            --ciphers +aes128cbc: “aes128cbc” is not a cipher eSSH supports. It supports: \
            chacha20-poly1305@openssh.com, aes256-ctr, aes128-ctr, aes256-cbc, aes128-cbc, 3des-cbc.
            """)
        let pattern = #expect(throws: AlgorithmProblem.self) { try ciphers("+*-ocb") }
        #expect(pattern?.message.contains("“*-ocb” matches no cipher eSSH supports") == true)
    }

    @Test func nothingLeftOrNoListIsRefused() {
        #expect(#expect(throws: AlgorithmProblem.self) { try ciphers("-*") }?.reason == .nothingLeft)
        for text in ["+", "-", "a,,b", "aes128-ctr, aes256-ctr", ","] {
            let problem = #expect(throws: AlgorithmProblem.self) { try ciphers(text) }
            if case .syntax = problem?.reason {} else { Issue.record("\(text): \(String(describing: problem))") }
        }
    }

    @Test func defaultsThenTheSavedServerThenTheCommandLine() throws {
        let saved = AlgorithmChoices(kex: "+diffie-hellman-group14-sha1", ciphers: "aes128-cbc,aes128-ctr")
        let options = AlgorithmChoices(hostKeys: "+ssh-rsa", ciphers: "^aes128-ctr", macs: "+hmac-sha1")
        let result = try AlgorithmSelection.resolve(saved: saved, serverName: "router", options: options,
                                                    defaults: defaults, supported: supported)
        #expect(result == Algorithms(kex: ["curve25519-sha256", "diffie-hellman-group14-sha1"],
                                     hostKeys: ["ssh-ed25519", "rsa-sha2-512", "ssh-rsa"],
                                     ciphers: ["aes128-ctr", "aes128-cbc"], macs: ["hmac-sha2-256", "hmac-sha1"]))
        // Nothing given: the defaults.
        #expect(try AlgorithmSelection.resolve(defaults: defaults, supported: supported) == defaults)
    }

    @Test func aSavedFieldsProblemNamesTheServerAndTheField() {
        let saved = AlgorithmChoices(macs: "+hmac-sha3")
        let problem = #expect(throws: AlgorithmProblem.self) {
            try AlgorithmSelection.resolve(saved: saved, serverName: "router", defaults: defaults, supported: supported)
        }
        #expect(problem?.message.hasPrefix("The MACs field of router (+hmac-sha3): “hmac-sha3” is not a MAC eSSH "
                                           + "supports.") == true)
        #expect(AlgorithmSelection.problems(saved, serverName: "router", supported: supported).map(\.kind) == [.mac])
        #expect(AlgorithmSelection.problems(AlgorithmChoices(ciphers: "+3des-cbc"), serverName: "r",
                                            supported: supported).isEmpty)
    }

    @Test func theRealDefaultsAndLibraryAcceptOldDeviceChoices() throws {
        let result = try AlgorithmSelection.resolve(options: AlgorithmChoices(kex: "+diffie-hellman-group1-sha1",
                                                                              hostKeys: "+ssh-rsa",
                                                                              ciphers: "+aes128-cbc,3des-cbc",
                                                                              macs: "+hmac-sha1"))
        #expect(result.ciphers == Algorithms.defaults.ciphers + ["aes128-cbc", "3des-cbc"])
        #expect(result.hostKeys.last == "ssh-rsa")
        #expect(result.kex.last == "diffie-hellman-group1-sha1")
        #expect(result.macs.last == "hmac-sha1")
    }

    @Test func aConnectionProfileAppliesTheRuleAndReportsItsProblem() throws {
        var server = Server(name: "router", host: "10.0.0.1", auth: .agent)
        server.algorithms = AlgorithmChoices(ciphers: "+aes128-cbc")
        let context = ConnectionProfile.Context(environment: ["HOME": "/home/ann"], localUser: "ann")
        let profile = ConnectionProfile(server: server)
        #expect(try profile.options(context: context).algorithms.ciphers.last == "aes128-cbc")
        let overridden = try profile.options(.init(algorithms: AlgorithmChoices(ciphers: "-aes128-cbc")),
                                             context: context)
        #expect(overridden.algorithms.ciphers == Algorithms.defaults.ciphers)
        #expect(try ConnectionProfile(host: "h").options(context: context).algorithms == .defaults)
        do {
            _ = try profile.options(.init(algorithms: AlgorithmChoices(kex: "+sntrup761x25519-sha512@openssh.com")),
                                    context: context)
            Issue.record("an unknown key exchange was accepted")
        } catch {
            #expect(error.kind == .algorithms)
            #expect(error.message.hasPrefix("--kex +sntrup761x25519-sha512@openssh.com: “sntrup761x25519-sha512@"
                                            + "openssh.com” is not a key exchange eSSH supports. It supports: "
                                            + "curve25519-sha256"))
            #expect(error.options.host == "10.0.0.1")
        }
    }
}
