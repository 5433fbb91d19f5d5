import Crypto
import Foundation
import Testing
import TestSupport
@testable import SSH

@Suite struct CommandTests {
    @Test func everyLinuxSignalNameGives128PlusItsNumber() {
        let expected: [String: Int32] = ["TRAP": 133, "BUS": 135, "STKFLT": 144, "XCPU": 152, "SYS": 159, "TERM": 143]
        for (name, code) in expected {
            #expect(CommandExit(status: nil, signal: name).exitCode == code, "\(name)")
        }
    }

    @Test func exitStatusesComeBack() throws {
        let s = try TestServers.require()
        let session = try connect(s)
        for code: Int32 in [0, 1, 42, 255] {
            #expect(try session.capture("exit \(code)").exit == CommandExit(status: code, signal: nil))
        }
    }

    @Test func aSignalIsReportedByName() throws {
        let s = try TestServers.require()
        let exit = try connect(s).capture("kill -KILL $$").exit
        #expect(exit.signal == "KILL")
        #expect(exit.exitCode == 137)
    }

    @Test func manyCommandsShareOneSession() throws {
        let s = try TestServers.require()
        let session = try connect(s)
        for i in 0..<20 {
            let r = try session.capture("echo \(i)")
            #expect(String(decoding: r.stdout, as: UTF8.self) == "\(i)\n")
        }
    }

    @Test func nonASCIICommandAndNonUTF8OutputPassUnchanged() throws {
        let s = try TestServers.require()
        let r = try connect(s).capture("printf 'héllo 日本 '; printf '\\377\\376\\000end'; echo ünï >&2")
        #expect(r.stdout == Array("héllo 日本 ".utf8) + [0xFF, 0xFE, 0x00] + Array("end".utf8))
        #expect(r.stderr == Array("ünï\n".utf8))
    }

    @Test func fiveMegabytesOnEachStreamAtOnceDoNotStall() throws {
        let s = try TestServers.require()
        let cmd = "head -c 5000000 /dev/zero | tr '\\0' e >&2 & head -c 5000000 /dev/zero | tr '\\0' o; wait"
        let r = try connect(s).capture(cmd, timeout: 60)
        #expect(r.stdout.count == 5_000_000)
        #expect(r.stderr.count == 5_000_000)
        #expect(r.stdout.allSatisfy { $0 == UInt8(ascii: "o") })
        #expect(r.stderr.allSatisfy { $0 == UInt8(ascii: "e") })
    }

    @Test func twoHundredMegabytesArriveByteExact() throws {
        let s = try TestServers.require()
        var hash = SHA256()
        var count = 0
        let exit = try connect(s).run("cat \(s.data200M)", timeout: 120) { stream, bytes in
            if stream == .stdout {
                hash.update(bufferPointer: bytes)
                count += bytes.count
            }
        }
        #expect(exit.status == 0)
        #expect(count == 200_000_000)
        let local = try Data(contentsOf: URL(fileURLWithPath: s.data200M))
        #expect(Data(hash.finalize()) == Data(SHA256.hash(data: local)))
    }

    @Test func inputIsForwardedThenClosed() throws {
        let s = try TestServers.require()
        let r = try connect(s).capture("wc -c; cat", input: .bytes(Array(repeating: 65, count: 300_000)))
        #expect(String(decoding: r.stdout, as: UTF8.self).hasPrefix("300000\n"))
    }

    @Test func cancellingStopsACommandAndTheSessionStaysUsable() throws {
        let s = try TestServers.require()
        let session = try connect(s)
        let cancel = try Cancellation()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { cancel.cancel() }
        let started = Date()
        let e = sshError { _ = try session.capture("sleep 30", cancel: cancel) }
        #expect(e?.kind == .cancelled)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(try session.capture("echo still here").stdout == Array("still here\n".utf8))
    }

    @Test func aCommandTimeoutStopsIt() throws {
        let s = try TestServers.require()
        let session = try connect(s)
        let e = sshError { _ = try session.capture("sleep 30", timeout: 0.5) }
        #expect(e?.kind == .commandTimedOut)
        #expect(try session.capture("true").exit.status == 0)
    }

    @Test func sshdKilledMidCommandIsAClearErrorNotAHang() throws {
        let s = try TestServers.require()
        let session = try connect(s)
        // $PPID is the per-connection sshd process serving this session.
        let e = sshError { _ = try session.capture("echo started; sleep 0.2; kill -9 $PPID; sleep 30", timeout: 20) }
        #expect(e?.kind == .disconnected)
        #expect(sshError { _ = try session.capture("true") }?.kind == .disconnected)
    }
}
