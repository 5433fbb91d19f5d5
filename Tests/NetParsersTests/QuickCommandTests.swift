import Basics
import Testing
@testable import NetParsers

@Suite struct QuickCommandTests {
    @Test func osIsDetectedFromUnameOrVer() {
        #expect(ServerOS.detect(fromProbeOutput: "Linux\n") == .linux)
        #expect(ServerOS.detect(fromProbeOutput: "FreeBSD\n") == .bsd)
        #expect(ServerOS.detect(fromProbeOutput: "Darwin\n") == .macos)
        #expect(ServerOS.detect(fromProbeOutput: "\r\nMicrosoft Windows [Version 10.0.19045.3803]\r\n") == .windows)
        #expect(ServerOS.detect(fromProbeOutput: "SunOS\n") == nil)
        #expect(ServerOS.detect(fromProbeOutput: "") == nil)
    }

    @Test func linuxInterfacesFallBackFromIPJSONToIfconfig() {
        let plan = QuickCommand.plan(for: .linux, kind: .interfaces)
        #expect(plan.map(\.commandLine).prefix(3) == ["ip -j addr", "ip addr", "ifconfig -a"])
        #expect(plan.first?.format == .ipAddrJSON)
    }

    @Test func everyPlannedCommandHasAReaderForItsKind() {
        for os in ServerOS.detectable {
            for kind in DataKind.allCases {
                let plan = QuickCommand.plan(for: os, kind: kind)
                #expect(!plan.isEmpty)
                for command in plan {
                    #expect(command.format.kind == kind)
                    #expect(InputFormat.candidates(kind: kind, family: command.family).contains(command.format))
                }
            }
        }
    }

    @Test func missingCommandsAreToldApartFromFailures() {
        #expect(QuickCommand.isMissingCommand(exitStatus: 127, stderr: ""))
        #expect(QuickCommand.isMissingCommand(exitStatus: 1, stderr: "bash: ip: command not found"))
        #expect(QuickCommand.isMissingCommand(
            exitStatus: 1, stderr: "'ip' is not recognized as an internal or external command"))
        #expect(!QuickCommand.isMissingCommand(exitStatus: 0, stderr: ""))
        #expect(!QuickCommand.isMissingCommand(exitStatus: 2, stderr: "Permission denied"))
    }
}
