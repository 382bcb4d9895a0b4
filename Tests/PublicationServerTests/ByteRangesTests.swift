@testable import PublicationServer
import Testing

/// The `Range` header against a resource's length (RFC 9110 §14.1.2).
@Suite struct ByteRangesTests {
    @Test func firstLastSuffixAndOpenForms() {
        #expect(ByteRanges(header: "bytes=0-9", length: 100) == .partial([0..<10]))
        #expect(ByteRanges(header: "bytes=90-", length: 100) == .partial([90..<100]))
        #expect(ByteRanges(header: "bytes=-5", length: 100) == .partial([95..<100]))
        #expect(ByteRanges(header: "bytes=95-1000", length: 100) == .partial([95..<100]))
        #expect(ByteRanges(header: "bytes=0-0, 50-59 ,-1", length: 100) == .partial([0..<1, 50..<60, 99..<100]))
    }

    @Test func unsatisfiableAndMalformed() {
        #expect(ByteRanges(header: "bytes=100-", length: 100) == .unsatisfiable)
        #expect(ByteRanges(header: "bytes=-0", length: 100) == .unsatisfiable)
        #expect(ByteRanges(header: "bytes=5-1", length: 100) == .whole)
        #expect(ByteRanges(header: "items=0-1", length: 100) == .whole)
        #expect(ByteRanges(header: "bytes=a-b", length: 100) == .whole)
        #expect(ByteRanges(header: "bytes=+1-2", length: 100) == .whole)
        #expect(ByteRanges(header: nil, length: 100) == .whole)
        let many = "bytes=" + (0..<40).map { "\($0)-\($0)" }.joined(separator: ",")
        #expect(ByteRanges(header: many, length: 100) == .whole)
    }
}
