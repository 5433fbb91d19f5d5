import TestSupport
import Testing

extension TestServers {
    /// Saves the harness's bastion as `b1` and the target behind it as `t1` (`--jump b1`), both with the test key,
    /// in the database `environment` names: the set-up of every interface test of a server behind a bastion.
    func saveBastionAndTarget(environment: [String: String]) throws {
        for args in [["servers", "add", "b1", "--host", jump.b1.host, "--user", user, "--key", key("id_ed25519")],
                     ["servers", "add", "t1", "--host", "\(jump.t1.host):\(jump.t1.port)", "--user", user,
                      "--key", key("id_ed25519"), "--jump", "b1"]] {
            let r = try Binary.runEssh(args, environment: environment)
            #expect(r.status == 0, "\(r.err)")
        }
    }
}
