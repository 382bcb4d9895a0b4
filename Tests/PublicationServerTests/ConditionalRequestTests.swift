import Foundation
@testable import PublicationServer
import Testing
import TestSupport

/// `Last-Modified` (the publication file's date) and the conditions on it: `If-Modified-Since`
/// (after `If-None-Match`, which wins) and `If-Range` with a date.
@Suite struct ConditionalRequestTests {
    /// The file's modification date as an HTTP date, written by Foundation's own formatter. An
    /// HTTP date has no fractions: the date is cut to its second first, as the server does
    /// (the formatter rounds to the millisecond first: a file a fresh clone wrote at :50.9998
    /// would be :51, and CI failed on it).
    static func httpDate(ofFile path: String) throws -> (String, Date) {
        let exact = try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
        let date = Date(timeIntervalSince1970: exact.timeIntervalSince1970.rounded(.down))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return (formatter.string(from: date), date)
    }

    static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    @Test func resourcesCarryTheFileDateAndHonourIfModifiedSince() throws {
        let sample = ServeCommandTests.wasteland
        let (expected, modified) = try Self.httpDate(ofFile: sample)
        let server = try ServeProcess([sample], publications: 1, home: LecternProcess())
        defer { server.stop() }
        let client = server.client
        let resource = server.path() + "EPUB/wasteland-content.xhtml"

        let plain = try client.request(resource)
        #expect(plain.status == 200)
        #expect(plain.headers["last-modified"] == expected)
        let etag = try #require(plain.headers["etag"])
        #expect(try client.request(resource, method: "HEAD").headers["last-modified"] == expected)

        // Not modified since that date, nor since a later one; modified since an earlier one.
        let same = try client.request(resource, headers: ["If-Modified-Since": expected])
        #expect(same.status == 304 && same.body.isEmpty)
        #expect(same.headers["last-modified"] == expected && same.headers["etag"] == etag)
        // (Later, but not in the future, which would make it no condition.)
        let later = Self.format(min(modified.addingTimeInterval(3600), Date()))
        #expect(try client.request(resource, headers: ["If-Modified-Since": later]).status == 304)
        let earlier = Self.format(modified.addingTimeInterval(-86_400))
        #expect(try client.request(resource, headers: ["If-Modified-Since": earlier]).status == 200)
        // A date that cannot be read, or in the future, is no condition.
        #expect(try client.request(resource, headers: ["If-Modified-Since": "yesterday"]).status == 200)
        let future = Self.format(Date().addingTimeInterval(86_400 * 400))
        #expect(try client.request(resource, headers: ["If-Modified-Since": future]).status == 200)
        // If-None-Match decides when present, whatever the date says.
        #expect(try client.request(resource, headers: ["If-None-Match": "\"other\"", "If-Modified-Since": expected]).status == 200)
        #expect(try client.request(resource, headers: ["If-None-Match": etag, "If-Modified-Since": earlier]).status == 304)

        // If-Range with our date gives the range; with another date, the whole resource.
        let ranged = try client.request(resource, headers: ["Range": "bytes=0-9", "If-Range": expected])
        #expect(ranged.status == 206 && ranged.body.count == 10)
        let whole = try client.request(resource, headers: ["Range": "bytes=0-9", "If-Range": earlier])
        #expect(whole.status == 200 && whole.body == plain.body)
        #expect(server.stop() == 0)
    }

    @Test(arguments: [0, 1, 59, 86_399, 86_400, 951_782_400, 1_700_000_000, 4_102_444_799])
    func httpDatesRoundTripAndMatchFoundation(seconds: Int) {
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        let text = HTTPDate.format(date)
        #expect(text == Self.format(date))
        #expect(HTTPDate.parse(text) == date)
    }

    @Test func onlyTheFixedDateFormIsRead() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == Date(timeIntervalSince1970: 784_111_777))
        for text in ["Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
                     "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", ""] {
            #expect(HTTPDate.parse(text) == nil, "\(text)")
        }
    }
}
