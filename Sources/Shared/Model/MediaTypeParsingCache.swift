import Synchronization

/// Media types already parsed, by the text they were parsed from (nil for text that is not a
/// media type). Bounded: text from outside cannot make it grow without end.
final class MediaTypeParsingCache: Sendable {
    static let shared = MediaTypeParsingCache()

    /// Enough for every media type a real package names; longer texts are not kept.
    private static let capacity = 512, longestKept = 128
    private let entries = Mutex<[String: MediaType?]>([:])

    /// `.some(nil)` when `text` is known not to be a media type; nil when it was never parsed.
    func lookup(_ text: String) -> MediaType?? {
        entries.withLock { $0[text] }
    }

    func store(_ mediaType: MediaType?, for text: String) {
        guard text.utf8.count <= Self.longestKept else { return }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[text] = .some(mediaType)
        }
    }
}
