import Shared
import Streamer
import Testing
import TestSupport

/// An EPUB 2 book's `guide` gives its landmarks when it has no navigation document listing
/// them, so the contents popup's `L` reaches them too (#29 item 8).
@Suite struct GuideLandmarksTests {
    @Test func theGuideOfAnEPUB2BookIsItsLandmarks() async throws {
        let asset = try AssetRetriever().retrieve(path: Fixtures.sample("epub/debian-live-manual.en.epub"))
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
        defer { publication.close() }
        let landmarks = publication.landmarks
        #expect(landmarks.count == 190)
        // A reference without a title is named by its type.
        #expect(landmarks.dropFirst().first?.title == "Start of the Text")
        #expect(landmarks.first?.title == "index.xhtml")
        #expect(landmarks.dropFirst().first?.href.hasSuffix("section_a1.xhtml") == true)
    }

    @Test func aNavigationDocumentsLandmarksWin() async throws {
        let asset = try AssetRetriever().retrieve(path: Fixtures.sample("epub/idpf-wasteland.epub"))
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
        defer { publication.close() }
        #expect(publication.landmarks.map(\.title) == ["frontmatter", "bodymatter", "backmatter"])
    }
}
