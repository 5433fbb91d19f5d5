import Operations
import SSH
import Testing
@testable import App

/// The interface words the engines' remedies itself: no command-line advice (`--host-key-policy`, `--known-hosts`,
/// `--password-file`, `--timeout`, `--kex`) reaches its screens.
@Suite struct InterfaceWordsTests {
    let remedies: [SSHError.Remedy] = [
        .confirmHostKey(knownHostsFile: "/h/.ssh/known_hosts"), .otherKnownHostsFile, .givePassword, .longerTimeout,
        .allowAlgorithms([.init(kind: .kex, name: "diffie-hellman-group14-sha1"), .init(kind: .hostKey, name: "ssh-rsa")],
                         sha1HostKey: true),
    ]

    @Test func everyRemedyHasInterfaceWordsWithoutOptions() {
        for remedy in remedies {
            let error = SSHError(.hostKeyUnknown, "", "Situation.", remedy: remedy)
            let cli = error.message
            let tui = InterfaceWords.sentence(error)
            #expect(cli.contains("--"), "the command line names its option: \(cli)")
            #expect(tui.hasPrefix("Situation. ") && !tui.contains("--"), "\(tui)")
        }
        let unknown = SSHError(.hostKeyUnknown, "", "The host key of web1 is not known.",
                               remedy: .confirmHostKey(knownHostsFile: "/kh"))
        #expect(InterfaceWords.sentence(unknown).contains("press Enter on the server in the list"))
        let algorithms = InterfaceWords.remedy(remedies[4])
        #expect(algorithms.contains("+diffie-hellman-group14-sha1 in KEX and +ssh-rsa in Host key"), "\(algorithms)")
        #expect(InterfaceWords.sentence(SSHError(.refused, "", "Refused.")) == "Refused.")
    }
}
