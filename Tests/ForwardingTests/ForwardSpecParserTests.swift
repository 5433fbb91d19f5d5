import Testing
@testable import Forwarding

@Suite struct ForwardSpecParserTests {
    private func parse(_ kind: ForwardSpec.Kind, _ text: String) throws -> ForwardSpec {
        try ForwardSpecParser.parse(kind, text)
    }

    private func problem(_ kind: ForwardSpec.Kind, _ text: String) -> String? {
        do {
            _ = try ForwardSpecParser.parse(kind, text)
            return nil
        } catch {
            #expect(error.kind == .badSpec)
            return error.message
        }
    }

    @Test func localWithoutBindListensOnLoopback() throws {
        let spec = try parse(.local, "8080:db.internal:5432")
        #expect(spec == ForwardSpec(kind: .local, bindPort: 8080, host: "db.internal", hostPort: 5432))
        #expect(spec.localBindHosts == ["127.0.0.1", "::1"])
        #expect(spec.isLoopback)
        #expect(spec.exposureWarning == nil)
        #expect(spec.description == "-L 8080:db.internal:5432")
        #expect(spec.target == "db.internal:5432")
    }

    @Test func bindAddressesAndIPv6InBrackets() throws {
        let spec = try parse(.local, "[::1]:8080:[fd00::5]:80")
        #expect(spec.bindAddress == "::1" && spec.host == "fd00::5" && spec.hostPort == 80)
        #expect(spec.isLoopback)
        #expect(spec.description == "-L [::1]:8080:[fd00::5]:80")
        #expect(spec.target == "[fd00::5]:80")
        let v4 = try parse(.local, "10.0.0.7:8080:localhost:80")
        #expect(v4.bindAddress == "10.0.0.7" && !v4.isLoopback && v4.localBindHosts == ["10.0.0.7"])
        #expect(v4.exposureWarning?.hasPrefix("warning: -L 10.0.0.7:8080:localhost:80 listens on 10.0.0.7:8080") == true)
    }

    @Test func starAndEmptyBindMeanEveryAddressAndAreWarnedAbout() throws {
        for text in ["*:8080:h:80", ":8080:h:80"] {
            let spec = try parse(.local, text)
            #expect(spec.bindAddress == "")
            #expect(spec.localBindHosts == ["0.0.0.0", "::"])
            #expect(spec.exposureWarning?.contains("listens on *:8080") == true)
        }
        let remote = try parse(.remote, "*:9000:localhost:3000")
        #expect(remote.remoteBindHost == "")
        #expect(remote.exposureWarning?.contains("GatewayPorts") == true)
    }

    @Test func remoteDefaultsToTheServersLoopbackAndPortZeroIsAllowed() throws {
        let spec = try parse(.remote, "0:localhost:3000")
        #expect(spec.kind == .remote && spec.bindPort == 0 && spec.remoteBindHost == "localhost")
        #expect(spec.exposureWarning == nil)
    }

    @Test func dynamicTakesAPortAndAnOptionalBind() throws {
        #expect(try parse(.dynamic, "1080") == ForwardSpec(kind: .dynamic, bindPort: 1080))
        let bound = try parse(.dynamic, "localhost:1080")
        #expect(bound.bindAddress == "localhost" && bound.localBindHosts == ["127.0.0.1", "::1"] && bound.isLoopback)
        #expect(try parse(.dynamic, "[::1]:1080").bindAddress == "::1")
        #expect(try parse(.dynamic, "0.0.0.0:1080").exposureWarning?.contains("use the proxy") == true)
    }

    @Test func badInputGetsASentence() {
        #expect(problem(.local, "") == "-L : give -L [bind:]port:host:hostport.")
        #expect(problem(.local, "8080") == "-L 8080: a target is missing; give -L [bind:]port:host:hostport "
                + "(or -D 8080 for a SOCKS proxy).")
        #expect(problem(.local, "8080:db") != nil)
        #expect(problem(.local, "a:b:c:d:e") == "-L a:b:c:d:e: too many fields; give -L [bind:]port:host:hostport.")
        #expect(problem(.local, "http:db:80") == "-L http:db:80: the port to listen on “http” is not a port (a "
                + "number from 0 (any free port) to 65535).")
        #expect(problem(.local, "8080:db:0") == "-L 8080:db:0: the target's port “0” is not a port (a number from "
                + "1 to 65535).")
        #expect(problem(.local, "8080:db:70000")?.contains("“70000” is not a port") == true)
        #expect(problem(.local, "8080::80") == "-L 8080::80: the target host is empty; give -L [bind:]port:host:hostport.")
        #expect(problem(.local, "8080:[::1:80") == "-L 8080:[::1:80: a “[” without its “]”.")
        #expect(problem(.local, "8080:::1]:80") == "-L 8080:::1]:80: a “]” without its “[”.")
        #expect(problem(.local, "8080:[::1]x:80") == "-L 8080:[::1]x:80: after “]” comes “:” and a port.")
        #expect(problem(.local, "8080:db :80") != nil)
        #expect(problem(.local, "/tmp/sock:db:80")?.contains("Unix socket paths are not supported") == true)
        #expect(problem(.remote, "8080")?.contains("remote SOCKS forwarding") == true)
        #expect(problem(.dynamic, "8080:db:80")?.contains("did you mean -L?") == true)
        #expect(problem(.dynamic, "-1")?.contains("is not a port") == true)
        #expect(problem(.local, "8080:*:80") == "-L 8080:*:80: the target must be one host, not *.")
    }
}
