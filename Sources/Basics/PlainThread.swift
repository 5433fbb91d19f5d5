import Foundation

/// Starting a detached thread with a chosen stack size, where the system may say no. Foundation's `Thread.start`
/// stops the program when pthread_create fails (no memory under `ulimit -v`, the thread limit); this returns false
/// instead, so the caller can go on with fewer threads or say why it cannot.
public enum PlainThread {
    /// Runs `body` on a new detached thread; false (and `body` never runs) when the system refuses the thread.
    public static func start(stackSize: Int = 512 * 1024, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let rc = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box)
        if rc != 0 {
            Unmanaged<Body>.fromOpaque(box).release()
            return false
        }
        return true
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
