import AudioPlayback
import Foundation
import ReadAloud
import Shared
import Streamer
import TestSupport

/// Opens a publication without protections.
func openPublication(_ path: String) async throws -> Publication {
    let asset = try AssetRetriever().retrieve(path: path)
    return try await PublicationOpener(contentProtections: []).open(asset: asset, allowUserInteraction: false)
}

/// The narrated test book (``MediaOverlayEPUB``), written to a new file and opened.
func openNarratedBook() async throws -> Publication {
    let path = Fixtures.temporaryDirectory("narrated") + "/narrated.epub"
    try MediaOverlayEPUB.write(to: path)
    return try await openPublication(path)
}

