import Basics
import Foundation
import Testing

@Suite struct UserFacingErrorTests {
    private struct Sample: UserFacingError {
        var message: String
        var detail: String
    }

    private struct Plain: Error, CustomStringConvertible {
        var description: String { "a plain error" }
    }

    @Test func theDescriptionAddsTheDetailOnlyWhenItSaysSomethingNew() {
        #expect(Sample(message: "Could not connect.", detail: "").description == "Could not connect.")
        #expect(Sample(message: "Could not connect.", detail: "ECONNREFUSED").description
                == "Could not connect. (ECONNREFUSED)")
        #expect(Sample(message: "Cannot read /x: No such file.", detail: "No such file").description
                == "Cannot read /x: No such file.")
    }

    @Test func aUserFacingErrorIsShownByItsMessageAlone() {
        let error = Sample(message: "The database is locked.", detail: "SQLITE_BUSY")
        #expect(UserFacing.sentence(error) == "The database is locked.")
        #expect(UserFacing.sentence(Plain()) == "a plain error")
    }

    /// Real Foundation failures, as FileManager and String give them on this platform: each becomes a sentence
    /// naming the path, in words, never `Error Domain=NSCocoaErrorDomain Code=…`.
    @Test func foundationFileErrorsBecomeSentencesNamingThePath() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("essh-ufe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(FileManager.default.createFile(atPath: dir + "/file", contents: Data("x".utf8)))
        var cases: [(any Error, String)] = []
        do { _ = try String(contentsOfFile: dir + "/missing", encoding: .utf8) } catch {
            cases.append((error, "Cannot read \(dir)/missing: it does not exist (or a folder on its path does not)."))
        }
        do { try FileManager.default.createDirectory(atPath: dir + "/file/sub", withIntermediateDirectories: true) }
        catch { cases.append((error, "Cannot write \(dir)/file/sub: a part of its path is not a folder.")) }
        do { _ = try FileManager.default.contentsOfDirectory(atPath: dir + "/missing") } catch {
            cases.append((error, "Cannot read \(dir)/missing: it does not exist"))
        }
        try #require(cases.count == 3, "each call failed")
        for (error, sentence) in cases {
            #expect(String(describing: error).contains("NSCocoaErrorDomain"), "the raw form is the dump")
            let shown = UserFacing.sentence(error)
            #expect(shown.hasPrefix(sentence), "\(shown)")
            #expect(!shown.contains("Domain") && !shown.contains("Code="), "\(shown)")
            #expect(UserFacing.error(error) is FileSystemError)
        }
    }

    @Test func aCallerNamesWhatItWasDoing() throws {
        let error = try #require(FileSystemError(CocoaError(.fileWriteNoPermission), path: "/srv/x",
                                                 action: "create the folder"))
        #expect(error.message == "Cannot create the folder /srv/x: permission denied. Check the permissions of "
                + "the file and of its folders, or choose another path.")
        #expect(error.code == EACCES)
        #expect(error.detail == String(cString: strerror(EACCES)))
    }

    @Test func posixErrorsAndErrnoSayTheirReason() {
        #expect(UserFacing.sentence(POSIXError(.ENOSPC)) == "Cannot read a file: the disk (or your quota) is full. "
                + "Free some space and try again.")
        #expect(FileSystemError(path: "/x", errno: EISDIR, action: "read").message
                == "Cannot read /x: it is a folder. Give the path of a file.")
        #expect(FileSystemError(path: "/x", errno: EXDEV, action: "write").message
                == "Cannot write /x: \(String(cString: strerror(EXDEV))).")
    }

    @Test func otherFoundationErrorsAreNotTakenForFileErrors() {
        let coder = CocoaError(.coderReadCorrupt)
        #expect(FileSystemError(coder) == nil)
        #expect(!(UserFacing.error(coder) is FileSystemError))
        #expect(!UserFacing.sentence(coder).contains("Code="), "Foundation's own words: \(UserFacing.sentence(coder))")
        #expect(FileSystemError(Plain()) == nil)
    }
}
