import Foundation
import Testing
import TestSupport

/// libpq is opened only when the team layer needs it (CLibPQ.h says why): a command that never reaches a team
/// database carries none of libpq's libraries, and a team command loads it.
@Suite struct TeamLibraryTests {
    /// The names of the shared libraries an `essh ARGS` process maps while it waits on a listener that never
    /// answers (PORT in `arguments` is replaced by its port): read from /proc once `wanted` shows up, or after 3 s.
    private func mappedLibraries(_ arguments: [String], wanted: String) throws -> String {
        let listener = try LoopbackListener(.backlogFull)
        defer { listener.close() }
        let dir = try TempDir()
        defer { dir.cleanup() }
        let script = """
            "$0" "$@" </dev/null >/dev/null 2>&1 &
            pid=$!
            for _ in $(seq 30); do grep -q "$WANTED" /proc/$pid/maps 2>/dev/null && break; sleep 0.1; done
            kill -0 $pid 2>/dev/null || echo "ENDED EARLY"
            cat /proc/$pid/maps
            kill $pid
            """
        let args = arguments.map { $0.replacingOccurrences(of: "PORT", with: String(listener.port)) }
        let r = try Binary.run("/bin/sh", ["-c", script, Binary.essh] + args,
                               environment: ["HOME": dir.path, "ESSH_DB": dir.file("essh.db"), "WANTED": wanted],
                               timeout: 30)
        #expect(!r.out.contains("ENDED EARLY"), "essh \(args) ended before its maps were read")
        return r.out
    }

    @Test func onlyATeamCommandLoadsLibpq() throws {
        let exec = try mappedLibraries(["exec", "-p", "PORT", "127.0.0.1", "--", "true"], wanted: "nothing-at-all")
        #expect(exec.contains("libc.so"), "the maps were read")
        #expect(!exec.contains("libpq"), "essh exec maps libpq")
        #expect(!exec.contains("libkrb5") && !exec.contains("libldap"), "essh exec maps libpq's libraries")

        let team = try mappedLibraries(["team", "join", "--timeout", "30", "postgres://ana@127.0.0.1:PORT/essh"],
                                       wanted: "libpq")
        #expect(team.contains("libpq.so.5"), "essh team join does not map libpq")
    }
}
