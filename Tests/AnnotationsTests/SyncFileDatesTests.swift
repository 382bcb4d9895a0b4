import Annotations
import Foundation
import Testing

/// The dates a sync file writes (#32): four-digit years are written digit by digit (joining
/// padded strings was a sixth of writing a 2,000-annotation file), other years as before, and
/// the fraction of a second to the microsecond without trailing zeros.
@Suite struct SyncFileDatesTests {
    @Test(arguments: [
        (1_700_000_000.25, "2023-11-14T22:13:20.25Z"),
        (1_700_000_000.000_001, "2023-11-14T22:13:20.000001Z"),
        (0, "1970-01-01T00:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (-62_167_219_200, "0000-01-01T00:00:00Z"),
        (253_402_300_799, "9999-12-31T23:59:59Z"),
        (253_402_300_800, "10000-01-01T00:00:00Z"),
    ])
    func generatedDates(seconds: Double, written: String) throws {
        let publication = AnnotatedPublication(identifier: nil, title: "A", annotations: [])
        let file = AnnotationSyncFile.write(publication, generated: Date(timeIntervalSince1970: seconds))
        let text = String(decoding: file, as: UTF8.self)
        #expect(text.contains("\"generated\":\"\(written)\""), "\(text)")
    }
}
