import Shared

/// A long chapter's first part converted from a prefix of its source (#28): the first page of a
/// chapter of 65 MB need not wait for all of it to be read (inflated from the EPUB) first.
extension ContentDocumentParser {
    /// The first part of the document whose source begins with `prefix`: the document converted
    /// so far once it holds `length` offsets, the blocks, offsets, links and anchors the whole
    /// source's conversion has at that point.
    ///
    /// The part is taken only while libxml2 has been handed whole slices of the prefix and not
    /// its end (the push parser hands it 64 KiB at a time from the start, as for the whole
    /// source): every block in it then ended inside the prefix, none was ended by the cut. Nil
    /// when the prefix ends first (a longer one is needed), or when it cannot be parsed as it is
    /// (a DOCTYPE subset to remove, nesting to flatten: the whole is converted then).
    /// `recording`: walked as a conversion recording checkpoints walks (the whole's will).
    /// `told` is called with it at once, before libxml2 parses the rest of the prefix.
    static func firstPart(ofPrefix prefix: [UInt8], href: String, language: String?, readingProgression: ReadingProgression,
                          options: ContentParseOptions, firstPartLength length: Int, recording: Bool,
                          told: (TextDocument) -> Void = { _ in }) -> TextDocument? {
        guard prefix.withUnsafeBufferPointer(prepare) == nil else { return nil }
        var part: TextDocument?
        let recorder = recording ? HTMLConverter.CheckpointRecorder(spacing: ChapterCheckpoint.spacing) : nil
        withoutActuallyEscaping(told) { told in
            _ = try? parseDocument(prefix, href: href, language: language, readingProgression: readingProgression, options: options,
                                   observer: { converter in
                guard !converter.isStopped, converter.offset >= length else { return }
                if let parsed = converter.sourceBytesParsed(), parsed < prefix.count {
                    let document = converter.partialDocument()
                    part = document
                    told(document)
                }
                // Past that block, what the whole tells first is no longer this part: nothing more is of use.
                converter.isStopped = true
            }, recorder: recorder)
        }
        return part
    }
}
