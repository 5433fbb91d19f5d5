import Foundation

/// The project's own fixtures (Tests/NetParsersTests/Fixtures), found from this file's path.
enum Fixture {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    static func all() throws -> [String] {
        var names: [String] = []
        for sub in ["linux", "composed"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(sub).path)
            names += files.filter { $0.hasSuffix(".out") }.sorted().map { sub + "/" + $0 }
        }
        return names
    }
}
