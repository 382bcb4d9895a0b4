import AudioPlayback
import Foundation
import Shared
import Streamer
import TestSupport

/// Opens a publication without protections.
func openPublication(_ path: String) async throws -> Publication {
    let asset = try AssetRetriever().retrieve(path: path)
    return try await PublicationOpener(contentProtections: []).open(asset: asset, allowUserInteraction: false)
}

/// A publication built in memory: tracks with declared durations and a table of contents.
func syntheticAudiobook(durations: [Double?], toc: [Link] = []) -> Publication {
    let tracks = durations.enumerated().map { index, duration in
        Link(href: "audio/track\(index + 1).mp3", mediaType: MediaType("audio/mpeg"), title: "Track \(index + 1)", duration: duration)
    }
    return Publication(manifest: Manifest(metadata: Metadata(title: .nonlocalized("Synthetic")), readingOrder: tracks,
                                          tableOfContents: toc))
}

/// Waits (on the main actor, letting the player's events in) until `condition` holds or
/// `timeout` seconds pass; returns whether it holds.
@MainActor
func wait(timeout: Double = 60, until condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}

/// The duration of a constant-bitrate MPEG audio file without tags: its size over its bitrate
/// (what the decoder reports for such a file), from the first frame header.
func constantBitrateDuration(of data: Data) -> Double? {
    guard data.count > 4, data[0] == 0xFF, data[1] & 0xE0 == 0xE0 else { return nil }
    let version = (data[1] >> 3) & 3, layer = (data[1] >> 1) & 3
    guard version == 3, layer == 1 else { return nil }   // MPEG-1 Layer III only
    let kbps = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 0][Int(data[2] >> 4)]
    guard kbps > 0 else { return nil }
    return Double(data.count) * 8 / Double(kbps * 1000)
}
