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
    /// `stoppingAt`: the part ends with the first block that reaches that text offset, when
    /// one does before `end` (what the screens after a place need, not up to the checkpoint).
    public static func parsePart(html bytes: some Collection<UInt8>, href: String, language: String? = nil,
                                 readingProgression: ReadingProgression = .auto,
                                 options: ContentParseOptions = ContentParseOptions(),
                                 from checkpoint: ChapterCheckpoint, to end: ChapterCheckpoint?,
                                 stoppingAt stopOffset: Int? = nil) throws(ContentParseError) -> ChapterPart? {
        let prepared = bytes.withContiguousStorageIfAvailable(prepare) ?? Array(bytes).withUnsafeBufferPointer(prepare)
        func part(of source: some Collection<UInt8>) throws(ContentParseError) -> ChapterPart? {
            try parsePart(href: href, language: language, readingProgression: readingProgression, options: options,
                          from: checkpoint, toByte: end.map(\.byte) ?? source.count, stoppingAt: stopOffset) { range in
                Array(source.dropFirst(range.lowerBound).prefix(range.count))
            }
        }
        if let prepared { return try part(of: prepared) }
        return try part(of: bytes)
    }

    /// Converts the part from `checkpoint` to byte `endByte` of a source read by ranges through
    /// `read` (nil when it cannot be read; fewer bytes at its end): the head up to the body
    /// start tag's end, each wrapper's start tag and the stretch, nothing else. Nil when the
    /// source does not match the checkpoint, or when its head would be prepared before parsing
    /// (a DOCTYPE subset: the checkpoint's offsets are not the source's).
    static func parsePart(href: String, language: String?, readingProgression: ReadingProgression, options: ContentParseOptions,
                          from checkpoint: ChapterCheckpoint, toByte endByte: Int, stoppingAt stopOffset: Int? = nil,
                          read: (Range<Int>) -> [UInt8]?) throws(ContentParseError) -> ChapterPart? {
        let less = UInt8(ascii: "<")
        guard checkpoint.bodyStart > 0, checkpoint.bodyStart <= checkpoint.byte, checkpoint.byte < endByte,
              let head = read(0..<checkpoint.bodyStart), head.count == checkpoint.bodyStart, head.last == UInt8(ascii: ">"),
              head.withUnsafeBufferPointer(prepare) == nil else { return nil }
        var part = head
        // The wrappers' start tags, so that the part is converted in their context.
        for wrapper in checkpoint.wrappers {
            guard wrapper >= checkpoint.bodyStart, wrapper < checkpoint.byte,
                  let tag = startTag(at: wrapper, before: checkpoint.byte, read: read) else { return nil }
            part.append(contentsOf: tag)
        }
        guard let stretch = read(checkpoint.byte..<endByte), stretch.count == endByte - checkpoint.byte,
              stretch.first == less else { return nil }
        part.append(contentsOf: stretch)
        // Stopped as a first part from a prefix is (ContentDocumentParser+Prefix): at a block
        // the whole conversion also ends there, every later one left unconverted.
        var stopped: TextDocument?
        let observer: ((HTMLConverter) -> Void)? = stopOffset.map { stop in
            { converter in
                guard !converter.isStopped, converter.offset >= stop else { return }
                stopped = converter.partialDocument()
                converter.isStopped = true
            }
        }
        let converted = try parseDocument(part, href: href, language: language, readingProgression: readingProgression,
                                          options: options, observer: observer, start: checkpoint)
        let document = stopped ?? converted
        if let first = document.blocks.first, first.offset != checkpoint.offset { return nil }
        let last = document.blocks.last.map { $0.offset + $0.length } ?? checkpoint.offset
        return ChapterPart(document: document, firstBlock: checkpoint.blocks, offsets: checkpoint.offset..<last, bytes: part.count)
    }

    /// The start tag at `offset` (its `<` to its `>`, quoted `>` skipped), ending before `limit`;
    /// read 4 KiB at a time.
    static func startTag(at offset: Int, before limit: Int, read: (Range<Int>) -> [UInt8]?) -> [UInt8]? {
        var tag: [UInt8] = []
        var quote: UInt8?
        while offset + tag.count < limit {
            let start = offset + tag.count
            guard let chunk = read(start..<min(limit, start + 4096)), !chunk.isEmpty else { return nil }
            if tag.isEmpty, chunk.first != UInt8(ascii: "<") { return nil }
            for byte in chunk {
                tag.append(byte)
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: ">") {
                    return tag
                }
            }
        }
        return nil
    }
}
