import Foundation
@testable import PublicationServer
import Testing
import TestSupport

/// Overlapping ranges are coalesced (RFC 9110 §14.3), so that `Range: bytes=0-,0-,…` cannot
/// make the server send a resource once per range (issue #27, item 13).
@Suite struct OverlappingRangesTests {
    @Test func overlappingRangesAreMergedInAscendingOrder() {
        let thirtyTwo = "bytes=" + Array(repeating: "0-", count: 32).joined(separator: ",")
        #expect(ByteRanges(header: thirtyTwo, length: 100) == .partial([0..<100]))
        #expect(ByteRanges(header: "bytes=50-59,0-9,5-14,-3", length: 100) == .partial([0..<15, 50..<60, 97..<100]))
        #expect(ByteRanges(header: "bytes=10-19,-95", length: 100) == .partial([5..<100]))
        // Ranges that only touch do not overlap: they are kept as asked.
        #expect(ByteRanges(header: "bytes=50-59,0-49", length: 100) == .partial([50..<60, 0..<50]))
    }

    @Test func aResponseToOverlappingRangesIsNoLongerThanTheResource() throws {
        let server = try ServeProcess([ServeCommandTests.wasteland], publications: 1, home: LecternProcess())
        defer { server.stop() }
        let resource = server.path() + "EPUB/wasteland-content.xhtml"
        let whole = try server.client.request(resource)
        #expect(whole.status == 200)
        let length = whole.body.count

        let repeated = "bytes=" + Array(repeating: "0-", count: 32).joined(separator: ",")
        let response = try server.client.request(resource, headers: ["Range": repeated])
        #expect(response.status == 206)
        #expect(response.body.count == length, "\(response.body.count) bytes for a resource of \(length)")
        // Compared outside #expect, whose diff of two large failing collections takes minutes.
        let sameBytes = response.body == whole.body
        #expect(sameBytes)

        let overlapping = try server.client.request(resource, headers: ["Range": "bytes=0-99,50-149,-10,\(length - 20)-"])
        #expect(overlapping.status == 206)
        // Two parts remain (0-149 and the last 20 bytes), each sent once, with their framing.
        let text = overlapping.text
        #expect(text.components(separatedBy: "Content-Range: ").count - 1 == 2)
        #expect(text.contains("Content-Range: bytes 0-149/\(length)"))
        #expect(text.contains("Content-Range: bytes \(length - 20)-\(length - 1)/\(length)"))
        #expect(overlapping.body.count < 170 + 400)
        #expect(server.stop() == 0)
    }
}
