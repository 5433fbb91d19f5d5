import Basics
import Testing

@Suite struct CappedBytesTests {
    @Test func keepsUpToTheLimitAndCountsTheRest() {
        var buffer = CappedBytes(limit: 5)
        buffer.append(Array("abc".utf8))
        #expect(buffer.bytes == Array("abc".utf8) && buffer.cut == 0)
        buffer.append(Array("defg".utf8))
        #expect(buffer.bytes == Array("abcde".utf8) && buffer.cut == 2)
        buffer.append(Array("hi".utf8))
        #expect(buffer.bytes == Array("abcde".utf8) && buffer.cut == 4)
        #expect(buffer.limit == 5)
    }

    @Test func aZeroLimitKeepsNothing() {
        var buffer = CappedBytes(limit: 0)
        buffer.append([1, 2, 3])
        #expect(buffer.bytes.isEmpty && buffer.cut == 3)
    }

    @Test func anEmptyChunkChangesNothing() {
        var buffer = CappedBytes(limit: 2)
        buffer.append([UInt8]())
        #expect(buffer == CappedBytes(limit: 2))
    }

    @Test func bytesBeyondTheLimitAreCountedNotKeptOverManyChunks() {
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
