import Inventory
import Testing

/// `servers add --host` and the form's host field: one rule splits what a person types into host, user and port.
@Suite struct ServerAddressTests {
    @Test func userHostAndPortInTheHostFieldAreSplit() throws {
        #expect(try ServerAddress.split("alice@web1:2222", user: nil, port: nil).get()
                == .init(host: "web1", user: "alice", port: 2222))
        #expect(try ServerAddress.split("ssh://alice@web1:2222", user: nil, port: nil).get()
                == .init(host: "web1", user: "alice", port: 2222))
        #expect(try ServerAddress.split("ssh://[2001:db8::1]:2200/", user: "bob", port: nil).get()
                == .init(host: "2001:db8::1", user: "bob", port: 2200))
        #expect(try ServerAddress.split("fe80::1", user: nil, port: 22).get() == .init(host: "fe80::1", port: 22))
        #expect(try ServerAddress.split("web1", user: "u", port: 2).get() == .init(host: "web1", user: "u", port: 2))
    }

    @Test func aFieldGivenApartMayRepeatButNotContradict() throws {
        #expect(try ServerAddress.split("alice@web1:2222", user: "alice", port: 2222).get()
                == .init(host: "web1", user: "alice", port: 2222))
        guard case .failure(let user) = ServerAddress.split("alice@web1", user: "bob", port: nil),
              case .failure(let port) = ServerAddress.split("web1:2222", user: nil, port: 22) else {
            Issue.record("a contradiction was accepted")
            return
        }
        #expect(user.field == .user && user.address == .user(inHost: "alice", given: "bob"))
        #expect(user.message == "'alice@web1' names the user alice, but --user says bob: give the user once.")
        #expect(port.field == .port && port.address == .port(inHost: 2222, given: 22))
    }

    @Test func whatIsNoAddressIsRefusedOnTheHost() throws {
        for bad in ["ssh://web1/etc", "web1:99999", "@web1", "ssh://"] {
            guard case .failure(let problem) = ServerAddress.split(bad, user: nil, port: nil) else {
                Issue.record("\(bad) was accepted")
                continue
            }
            #expect(problem.field == .host && problem.message.hasPrefix("'\(bad)' is not an address: "), "\(bad)")
        }
        // Spaces and control characters are the server rules' to refuse, in their own words.
        #expect(try ServerAddress.split("a b:22", user: nil, port: nil).get().host == "a b:22")
    }

    @Test func bracketsAreNoLongerAllowedInNames() {
        #expect(ServerValidation.nameProblem("web[1]") != nil && ServerValidation.nameProblem("web1") == nil)
    }
}
