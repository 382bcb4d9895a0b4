import Shared

/// A long chapter's first part from a prefix of its resource (#28): the reading order's long
/// chapters are deflated in the EPUB, and inflating 65 MB took 550 ms of the 640 ms a first
/// page waited for.
extension ContentDocumentLoader {
    /// The first prefix read of a long resource (grown four times over while the first part is
    /// not reached in it): a multiple of the push parser's 64 KiB slices, so that its slices are
    /// the whole source's.
    static let firstPrefixBytes = 256 * 1024

    /// Reads growing prefixes of `opened`'s resource (at least ``firstPartMinimumBytes`` long by
    /// its length) and hands `firstPart` the document's first `length` offsets
    /// converted from one (``ContentDocumentParser/firstPart(ofPrefix:href:language:readingProgression:options:firstPartLength:recording:)``),
    /// telling the observer the bytes read. False when it was not: the length unknown or short,
    /// plain text, a source to prepare, a prefix that would be the whole; the whole is read then.
    func firstPart(fromPrefixOf opened: OpenedResource, firstPartLength length: Int, recording: Bool,
                   firstPart: (TextDocument) -> Void) -> Bool {
        let resource = opened.resource
        guard !opened.isPlainText, case .success(let total) = resource.length, total >= UInt64(Self.firstPartMinimumBytes) else {
            return false
        }
        // Two bytes of source a character at least (markup), in whole prefixes.
        var size = Self.firstPrefixBytes
        while size < 2 * length { size *= 4 }
        var prefix: [UInt8] = []
        while UInt64(size) < total {
            guard case .success(let data) = resource.read(range: UInt64(prefix.count)..<UInt64(size)) else { return false }
            prefix.append(contentsOf: data)
            // Shorter than its length said: read whole, as it is.
            guard prefix.count == size else { return false }
            let part = ContentDocumentParser.firstPart(ofPrefix: prefix, href: opened.href, language: opened.language,
                                                       readingProgression: opened.progression, options: options,
                                                       firstPartLength: length, recording: recording) { part in
                observer?(.firstPart(href: opened.href, length: part.length, bytes: prefix.count))
                firstPart(part)
            }
            if part != nil { return true }
            size *= 4
        }
        return false
    }
}
