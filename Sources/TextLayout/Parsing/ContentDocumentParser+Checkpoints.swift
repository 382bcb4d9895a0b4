import Shared

/// Converting a long chapter from a ``ChapterCheckpoint`` instead of from its start: what a
/// reopening deep in the chapter shows while the whole is converted.
extension ContentDocumentParser {
    /// Converts `bytes` whole like ``parse(html:href:language:readingProgression:options:)``,
    /// recording a ``ChapterCheckpoint`` about every `spacing` source bytes (before a child of
    /// `<body>` that starts between two blocks).
    public static func parse(html bytes: some Collection<UInt8>, href: String, language: String? = nil,
                             readingProgression: ReadingProgression = .auto,
                             options: ContentParseOptions = ContentParseOptions(),
                             recordingCheckpointsEvery spacing: Int) throws(ContentParseError)
        -> (document: TextDocument, checkpoints: [ChapterCheckpoint]) {
        let recorder = HTMLConverter.CheckpointRecorder(spacing: spacing)
        let document = try parse(html: bytes, href: href, language: language, readingProgression: readingProgression,
                                 options: options, observer: nil, recorder: recorder)
        return (document, recorder.checkpoints)
    }

    /// Converts the part of `bytes` from `checkpoint` to `end` (the next checkpoint chosen, or
    /// the end of the source): the head and body start tag, then the source from the
    /// checkpoint's element on. Its blocks, offsets, links and anchors are the whole
    /// document's. Nil when the source does not match the checkpoint (another edition).
    public static func parsePart(html bytes: some Collection<UInt8>, href: String, language: String? = nil,
                                 readingProgression: ReadingProgression = .auto,
                                 options: ContentParseOptions = ContentParseOptions(),
                                 from checkpoint: ChapterCheckpoint, to end: ChapterCheckpoint?) throws(ContentParseError) -> ChapterPart? {
        let source = Array(bytes)
        let prepared = source.withUnsafeBufferPointer(prepare) ?? source
        let endByte = end.map(\.byte) ?? prepared.count
        guard checkpoint.bodyStart > 0, checkpoint.bodyStart <= checkpoint.byte, checkpoint.byte < endByte,
              endByte <= prepared.count, prepared[checkpoint.byte] == UInt8(ascii: "<"),
              prepared[checkpoint.bodyStart - 1] == UInt8(ascii: ">") else { return nil }
        var part = Array(prepared[0..<checkpoint.bodyStart])
        // The wrappers' start tags, so that the part is converted in their context.
        let recorder = HTMLConverter.CheckpointRecorder(spacing: 1)
        recorder.source = { offset, count in Array(prepared[min(offset, prepared.count)..<min(prepared.count, offset + count)]) }
        for wrapper in checkpoint.wrappers {
            guard wrapper >= checkpoint.bodyStart, wrapper < checkpoint.byte, prepared[wrapper] == UInt8(ascii: "<"),
                  let end = recorder.tagEnd(from: wrapper), end <= checkpoint.byte else { return nil }
            part.append(contentsOf: prepared[wrapper..<end])
        }
        part.append(contentsOf: prepared[checkpoint.byte..<endByte])
        let document = try parseDocument(part, href: href, language: language, readingProgression: readingProgression,
                                         options: options, start: checkpoint)
        if let first = document.blocks.first, first.offset != checkpoint.offset { return nil }
        let last = document.blocks.last.map { $0.offset + $0.length } ?? checkpoint.offset
        return ChapterPart(document: document, firstBlock: checkpoint.blocks, offsets: checkpoint.offset..<last, bytes: part.count)
    }
}
