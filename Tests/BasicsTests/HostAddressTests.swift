import Basics
import Testing

@Suite struct HostAddressTests {
    @Test func splitsUserHostAndPortWithOrWithoutTheSSHScheme() throws {
        #expect(try HostAddress(parsing: "admin@web1:2222") == HostAddress(user: "admin", host: "web1", port: 2222))
        #expect(try HostAddress(parsing: "ssh://admin@web1:2222")
                == HostAddress(user: "admin", host: "web1", port: 2222))
        #expect(try HostAddress(parsing: "SSH://web1/") == HostAddress(host: "web1"))
        #expect(try HostAddress(parsing: "ssh://[2001:db8::1]:2200") == HostAddress(host: "2001:db8::1", port: 2200))
        #expect(try HostAddress(parsing: "ssh://ann@[::1]") == HostAddress(user: "ann", host: "::1"))
        #expect(try HostAddress(parsing: "fe80::1") == HostAddress(host: "fe80::1"))
    }

    @Test func refusesWhatAnSSHURICannotMean() {
        for bad in ["ssh://web1/etc", "ssh://ann;fingerprint=SHA256-x@web1", "ssh://", "ssh://ann@", "ssh://web1:0"] {
            #expect(throws: HostAddress.Problem.self, "\(bad)") { try HostAddress(parsing: bad) }
        }
    }
}
