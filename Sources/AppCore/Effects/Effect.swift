import Basics
import Fleet
import Operations
import Inventory
import Mail
import NetParsers
import Reachability

/// What `Update.update` asks the runtime to do; its results come back as `Message`s, so the state machine is tested
/// without a network, a database or a terminal. The type says who runs it: `work` goes to the effect handler's
/// workers off the UI thread; `handOver` is the loop's own, because only the UI thread may leave and re-enter the
/// full-screen mode.
package enum Effect: Sendable, Equatable {
    case work(Work)
    /// Runs work that needs the real terminal (a pipe into a local command, the interactive shell).
    case handOver(Handoff)
    /// Stops eSSH as Ctrl-Z does in a shell (SIGTSTP), the terminal restored meanwhile, until `fg` continues it; the
    /// loop's, like a handoff.
    case suspend

    /// The work, when this is work (for tests that match one case).
    var work: Work? {
        if case .work(let work) = self { return work }
        return nil
    }
}

/// Shorthands, so update code and tests read `[.load]`, `[.run(id: 1, command: "df -h")]`.
extension Effect {
    static let load = Effect.work(.load)
    static func saveServer(_ draft: ServerDraft, replacing: String?) -> Effect {
        .work(.saveServer(draft, replacing: replacing))
    }
    static func deleteServer(_ name: String) -> Effect { .work(.deleteServer(name)) }
    static func saveSettings(_ values: [String: String]) -> Effect { .work(.saveSettings(values)) }
    static func recordConnection(name: String, os: ServerOS?) -> Effect { .work(.recordConnection(name: name, os: os)) }
    static func loadHistory(_ name: String) -> Effect { .work(.loadHistory(name)) }
    static func appendHistory(server: String, command: String, status: Int?) -> Effect {
        .work(.appendHistory(server: server, command: command, status: status))
    }
    static let loadFleetHistory = Effect.work(.loadFleetHistory)
    static func appendFleetHistory(command: String, servers: Int) -> Effect {
        .work(.appendFleetHistory(command: command, servers: servers))
    }
    static func check(_ targets: [Int64: CheckTarget], timeout: Double) -> Effect {
        .work(.check(targets, timeout: timeout))
    }
    static func connect(_ target: ConnectionProfile, knownHosts: String,
                        keepalive: Int = Settings().keepalive) -> Effect {
        .work(.connect(target, knownHosts: knownHosts, keepalive: keepalive))
    }
    static let cancelConnect = Effect.work(.cancelConnect)
    static func answer(id: Int, _ answer: PromptAnswer) -> Effect { .work(.answer(id: id, answer)) }
    static func run(id: Int, command: String) -> Effect { .work(.run(id: id, command: command)) }
    static func runQuick(id: Int, kind: DataKind, os: ServerOS) -> Effect {
        .work(.runQuick(id: id, kind: kind, os: os))
    }
    static let cancelCommand = Effect.work(.cancelCommand)
    static let disconnect = Effect.work(.disconnect)
    static let keepalive = Effect.work(.keepalive)
    static func sendMail(_ mail: OutputMail, sendmail: String) -> Effect { .work(.sendMail(mail, sendmail: sendmail)) }
    static func retryMail(sendmail: String) -> Effect { .work(.retryMail(sendmail: sendmail)) }
    static func saveOutput(path: String, bytes: [UInt8]) -> Effect { .work(.saveOutput(path: path, bytes: bytes)) }
    static func runFleet(id: Int, targets: [ConnectionProfile], command: String, knownHosts: String, parallel: Int,
                         timeout: Double, password: String?, checked: [String: FleetTarget.Problem] = [:]) -> Effect {
        .work(.runFleet(id: id, targets: targets, command: command, knownHosts: knownHosts, parallel: parallel,
                        timeout: timeout, password: password, checked: checked))
    }
    static let cancelFleet = Effect.work(.cancelFleet)
    static func checkFleetLogins(id: Int, targets: [ConnectionProfile], knownHosts: String, parallel: Int,
                                 timeout: Double) -> Effect {
        .work(.checkFleetLogins(id: id, targets: targets, knownHosts: knownHosts, parallel: parallel,
                                timeout: timeout))
    }
    static let cancelFleetCheck = Effect.work(.cancelFleetCheck)
    static func vault(_ work: VaultWork) -> Effect { .work(.vault(work)) }
}
