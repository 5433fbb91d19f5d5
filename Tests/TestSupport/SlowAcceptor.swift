import Foundation
import LocalProcess

/// A listener in t1's namespace that drops connections (its backlog full, as the harness's silent port) until
/// `release()`, then accepts them: an open given up before that gets its confirmation late. It logs `accepted` and
/// `closed` (the peer's end-of-file: the bastion's sshd closed the channel's connection) for each connection.
public final class SlowAcceptor: Sendable {
    public let port: Int
    private let pid: pid_t
    private let dir: TempDir

    public init(_ s: TestServers) throws {
        dir = try TempDir()
        chmod(dir.path, 0o755)
        let script = """
            import os, socket, sys, time, select
            port, ready, release, log = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("0.0.0.0", port)); s.listen(0)
            held = []
            for _ in range(3):
                c = socket.socket(); c.setblocking(False); c.connect_ex(("127.0.0.1", port)); held.append(c)
            time.sleep(0.2)
            open(ready, "w").write("ready\\n")
            while not os.path.exists(release): time.sleep(0.05)
            for c in held: c.close()
            s.listen(64)
            conns = []
            def note(text):
                with open(log, "a") as f: f.write(text + "\\n")
            while True:
                r, _, _ = select.select([s] + conns, [], [], 1)
                for x in r:
                    if x is s:
                        c, a = s.accept()
                        if a[0] == "127.0.0.1": c.close(); continue
                        conns.append(c); note("accepted")
                    else:
                        if not x.recv(4096): conns.remove(x); x.close(); note("closed")
            """
        try dir.writeScript(script, to: dir.file("slow.py"))
        var lastWhy = ""
        for attempt in 0..<20 {
            let port = 30000 + Int.random(in: 0..<20000) + attempt
            let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
            let pid = try ChildProcess.spawn("/usr/sbin/ip", ["netns", "exec", s.jump.t1.netns, "/usr/bin/python3",
                                                              dir.file("slow.py"), "\(port)", dir.file("ready"),
                                                              dir.file("release"), dir.file("log")],
                                             stdin: devNull, stdout: devNull, stderr: devNull,
                                             closeOtherDescriptors: true, newSession: true)
            close(devNull)
            for _ in 0..<100 where !FileManager.default.fileExists(atPath: dir.file("ready")) {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid { break }
                usleep(50_000)
            }
            if FileManager.default.fileExists(atPath: dir.file("ready")) {
                self.port = port
                self.pid = pid
                return
            }
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid, timeout: 2)
            lastWhy = "port \(port) did not come up"
        }
        throw SlowAcceptorFailure(description: "the slow acceptor did not start: \(lastWhy)")
    }

    public func release() { _ = FileManager.default.createFile(atPath: dir.file("release"), contents: Data()) }

    public var log: [String] {
        ((try? String(contentsOfFile: dir.file("log"), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    public func stop() {
        kill(pid, SIGKILL)
        _ = ChildProcess.wait(pid, timeout: 2)
        dir.cleanup()
    }
}

struct SlowAcceptorFailure: Error, CustomStringConvertible {
    let description: String
}

