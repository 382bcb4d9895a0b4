import PublicationServer
import Testing

/// The request-head checks the `http-request-head` fuzzer drives decide as the server does, so
/// that what the fuzzer explores is the server's behaviour: the seeds' heads, by hand.
@Suite struct RequestHeadChecksTests {
    static let book = "/\(RequestHeadChecks.secret)/pub/\(RequestHeadChecks.publicationID)/"

    @Test func overlappingRangesAreCoalescedAndAHostOfOursIsAccepted() {
        let verdict = RequestHeadChecks.evaluate(
            target: Self.book + "OEBPS/chapter1.xhtml",
            fields: [("Host", "LOCALHOST:8080"), ("Range", "bytes=0-,0-,10-19")], resourceLength: 4096)
        #expect(verdict.hostAccepted && verdict.routed && !verdict.duplicateHostRefused && !verdict.notModified)
        #expect(verdict.ranges == [0..<4096])
    }

    @Test func aSecondHostADotSegmentAndAForeignHostAreRefused() {
        let verdict = RequestHeadChecks.evaluate(
            target: Self.book + "%2e%2e/secret", fields: [("Host", "evil.example:8080"), ("Host", "127.0.0.1:8080")],
            resourceLength: 10)
        #expect(!verdict.hostAccepted && verdict.duplicateHostRefused && !verdict.routed)
    }

    @Test func anIfRangeOfAnotherDateSendsTheWholeResourceAndAnEntityTagListMatches() {
        let verdict = RequestHeadChecks.evaluate(
            target: Self.book, fields: [("Host", "[::1]:8080"), ("Range", "bytes=-5"),
                                         ("If-Range", "Thu, 01 Jan 1970 00:00:00 GMT"), ("If-None-Match", "W/\"x\", *")],
            resourceLength: 10)
        #expect(verdict.ranges == nil && verdict.notModified)
        let unsatisfiable = RequestHeadChecks.evaluate(target: Self.book, fields: [("Range", "bytes=10-")], resourceLength: 10)
        #expect(unsatisfiable.ranges == [] && !unsatisfiable.hostAccepted)
    }
}
