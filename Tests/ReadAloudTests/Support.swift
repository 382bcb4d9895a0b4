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

/// An engine that records what it is asked and lets the test play mpv's part.
@MainActor
final class ScriptedEngine: AudioEngine {
    enum Call: Equatable {
        case load(track: Int, at: Double, paused: Bool)
        case seek(Double)
        case paused(Bool)
        case speed(Double)
        case shutdown
    }

    var onEvent: ((AudioEngineEvent) -> Void)?
    var calls: [Call] = []
    var outputName: String? { "scripted" }

    func load(track: Int, at time: Double, paused: Bool) { calls.append(.load(track: track, at: time, paused: paused)) }
    func seek(to time: Double) { calls.append(.seek(time)) }
    func setPaused(_ paused: Bool) { calls.append(.paused(paused)) }
    func setSpeed(_ speed: Double) { calls.append(.speed(speed)) }
    func shutdown() { calls.append(.shutdown) }

    /// The loads and seeks asked for, in order.
    var moves: [Call] {
        calls.filter { if case .load = $0 { true } else if case .seek = $0 { true } else { false } }
    }

    func send(_ event: AudioEngineEvent) { onEvent?(event) }
}
