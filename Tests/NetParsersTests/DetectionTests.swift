import Testing
@testable import NetParsers

@Suite struct DetectionTests {
    @Test func unrecognisedInputIsAnErrorNamingEveryFormatTried() {
        #expect {
            _ = try NetParser.interfaces("hello world\nthis is not ifconfig\n")
        } throws: { error in
            guard let e = error as? NetParseError, e.code == .unrecognised else { return false }
            let message = e.description
            return ["ifconfig (Linux net-tools 2.10+)", "ip addr", "ip -j addr", "ipconfig"].allSatisfy(message.contains)
        }
    }

    @Test func emptyInputIsAnError() {
        #expect(throws: NetParseError(code: .empty, tried: InputFormat.candidates(kind: .routes, family: .auto))) {
            _ = try NetParser.routes("  \n\n")
        }
    }

    @Test func aFormatWithNoLayoutForTheKindIsAnError() {
        #expect(throws: NetParseError(code: .formatNotForKind, tried: [])) {
            _ = try NetParser.interfaces("x", format: .ss)
        }
    }

    @Test func socketsOutputIsNotReadAsInterfaces() throws {
        #expect(throws: NetParseError.self) {
            _ = try NetParser.interfaces(Fixture.bytes("linux/ss-tuna.out"))
        }
    }

    @Test func partlyRecognisedInputKeepsWhatWasReadAndWarns() throws {
        let text = "eth0: flags=4163<UP>  mtu 1500\n        inet 10.0.0.1  netmask 255.0.0.0\ngarbage line\n"
        let result = try NetParser.interfaces(text)
        #expect(result.items == [Interface(name: "eth0", state: .up, mtu: 1500,
                                           ipv4: [IPv4Address(address: "10.0.0.1", prefix: 8)])])
        #expect(result.warnings == ["line 3: not an ifconfig interface header, skipped"])
    }

    @Test func invalidIPJSONIsAnErrorWithTheDecoderDetail() {
        #expect(throws: NetParseError.self) { _ = try NetParser.interfaces("[{\"ifname\": 3}") }
    }

    @Test func everyOwnFixtureIsDetectedAsItsLayout() throws {
        let expected: [String: InputFormat] = [
            "linux/ip-addr.out": .ipAddr, "linux/ip-o-addr.out": .ipAddrOneLine, "linux/ip-j-addr.out": .ipAddrJSON,
            "linux/ifconfig-a.out": .ifconfigLinux, "composed/ifconfig-old.out": .ifconfigLinuxOld,
            "composed/ifconfig-freebsd.out": .ifconfigBSD, "linux/route-n.out": .routeLinux,
            "linux/route-6-n.out": .routeLinux6, "linux/netstat-rn.out": .netstatRoutesLinux,
            "linux/ip-route.out": .ipRoute, "linux/ip-6-route.out": .ipRoute,
            "composed/netstat-rn-macos.out": .netstatRoutesBSD, "composed/route-print-windows.out": .routePrint,
            "linux/netstat-tuna.out": .netstatLinux, "linux/ss-tulpn.out": .ss,
            "composed/netstat-an-macos.out": .netstatBSD, "composed/netstat-ano-windows.out": .netstatWindows,
        ]
        for (name, format) in expected {
            let bytes = try Fixture.bytes(name)
            let got: InputFormat
            switch format.kind {
            case .interfaces: got = try NetParser.interfaces(bytes).format
            case .routes: got = try NetParser.routes(bytes).format
            case .sockets: got = try NetParser.sockets(bytes).format
            }
            #expect(got == format, "\(name)")
        }
    }
}
