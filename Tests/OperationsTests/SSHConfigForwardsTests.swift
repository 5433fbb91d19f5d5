import Inventory
import Operations
import Testing

/// ssh_config's forward lines read by the rule -L/-R/-D and saved tunnels follow.
@Suite struct SSHConfigForwardsTests {
    private func line(_ kind: SSHConfigForward.Kind, _ arguments: String, at number: Int = 1) -> SSHConfigForward {
        SSHConfigForward(kind: kind, arguments: arguments.split(separator: " ").map(String.init),
                         location: SSHConfigLocation(file: "/home/u/.ssh/config", line: number))
    }

    @Test func everyTCPFormOfOpenSSHBecomesASavedForward() {
        let reading = SSHConfigForwards.read([
            line(.local, "8080 db:80"),
            line(.local, "127.0.0.1:8081 db:80"),
            line(.local, "[::1]:8082 [fd00::5]:80"),
            line(.local, "*:8083 db:80"),
            line(.local, "localhost:8084 db:80"),
            line(.remote, "9000 localhost:3000"),
            line(.remote, "0.0.0.0:9001 [::1]:3000"),
            line(.dynamic, "1080"),
            line(.dynamic, "[::1]:1081"),
            line(.dynamic, "localhost:1082"),
        ])
        #expect(reading.refused == [])
        #expect(reading.saved == [
            "L:8080:db:80", "L:127.0.0.1:8081:db:80", "L:[::1]:8082:[fd00::5]:80", "L:*:8083:db:80",
            "L:localhost:8084:db:80", "R:9000:localhost:3000", "R:0.0.0.0:9001:[::1]:3000", "D:1080", "D:[::1]:1081",
            "D:localhost:1082",
        ])
    }

    @Test func twoSpellingsOfOneForwardAreOne() {
        let reading = SSHConfigForwards.read([line(.local, "8080 db:80"), line(.local, ":8090 db:80"),
                                              line(.local, "8080 db:80"), line(.local, "*:8090 db:80")])
        #expect(reading.saved == ["L:8080:db:80", "L:*:8090:db:80"])
    }

    /// What eSSH cannot set up is refused with the line and why, never dropped unsaid.
    @Test func socketPathsRemoteSOCKSAndMalformedLinesAreRefusedWithTheirReason() {
        let reading = SSHConfigForwards.read([
            line(.local, "/tmp/a.sock db:80", at: 3),
            line(.remote, "8080 /run/app.sock", at: 4),
            line(.remote, "1080", at: 5),
            line(.local, "8080", at: 6),
            line(.dynamic, "1080 extra", at: 7),
            line(.local, "99999 db:80", at: 8),
            line(.local, "8080 db", at: 9),
        ])
        #expect(reading.saved == [])
        #expect(reading.refused.map(\.line.location.line) == [3, 4, 5, 6, 7, 8, 9])
        #expect(reading.refused[0].text == "LocalForward /tmp/a.sock db:80 (/home/u/.ssh/config:3): Unix-domain "
                + "socket forwarding is not supported by eSSH (TCP ports only)")
        #expect(reading.refused[1].reason.hasPrefix("Unix-domain socket"))
        #expect(reading.refused[2].reason.contains("SOCKS proxy on the server's side"))
        #expect(reading.refused[3].reason == "the target is missing (LocalForward [bind:]port host:hostport)")
        #expect(reading.refused[4].reason == "give DynamicForward [bind:]port")
        #expect(reading.refused[5].reason.contains("“99999” is not a port"))
        #expect(reading.refused[6].reason.contains("-L 8080:db:"), "\(reading.refused[6].reason)")
    }
}
