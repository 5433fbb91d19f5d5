import AppCore
import Testing

@Suite struct CappedBytesTests {
    @Test func bytesBeyondTheLimitAreCountedNotKept() {
        var buffer = CappedBytes(limit: 5)
        buffer.append([1, 2, 3])
        buffer.append([4, 5, 6, 7])
        buffer.append([8])
        #expect(buffer.bytes == [1, 2, 3, 4, 5])
        #expect(buffer.cut == 3)
    }

    @Test func aChunkThatFitsExactlyIsKeptWhole() {
        var buffer = CappedBytes(limit: 4)
        buffer.append([1, 2, 3, 4])
        #expect(buffer.bytes == [1, 2, 3, 4])
        #expect(buffer.cut == 0)
    }
}
