import Shared

/// Loading a long chapter by parts from its checkpoints (#28): recorded when it is converted
/// whole, a stretch converted when it is reopened deep inside.
extension ContentDocumentLoader {
    /// Reads and converts the resource of `link` like ``load(_:)``, recording
    /// ``ChapterCheckpoint``s (about ``ChapterCheckpoint/spacing`` bytes apart) when it is at
    /// least ``firstPartMinimumBytes`` long; none for a shorter one.
    public func load(_ link: Link, recordingCheckpoints: Bool) throws(ContentLoadError) -> (document: TextDocument, checkpoints: [ChapterCheckpoint]) {
        var checkpoints: [ChapterCheckpoint] = []
        let document = try convert(link) { source, href, language, progression throws(ContentParseError) in
            guard recordingCheckpoints, source.count >= Self.firstPartMinimumBytes else {
                let document = try ContentDocumentParser.parse(html: source, href: href, language: language,
                                                               readingProgression: progression, options: options)
                observer?(.whole(href: href, length: document.length, bytes: source.count))
                return document
            }
            let (document, recorded) = try ContentDocumentParser.parse(html: source, href: href, language: language,
                                                                       readingProgression: progression, options: options,
                                                                       recordingCheckpointsEvery: ChapterCheckpoint.spacing)
            checkpoints = recorded
            observer?(.whole(href: href, length: document.length, bytes: source.count))
            return document
        }
        return (document, checkpoints)
    }

    /// Converts the stretch of the resource of `link` from `checkpoint` to `end` (nil: its
    /// end), telling the observer of it as a first part (its offsets, the bytes converted).
    /// Nil when the resource does not match the checkpoints (another edition) or is not HTML.
    public func loadPart(_ link: Link, from checkpoint: ChapterCheckpoint, to end: ChapterCheckpoint?) throws(ContentLoadError) -> ChapterPart? {
        var part: ChapterPart?
        _ = try convert(link) { source, href, language, progression throws(ContentParseError) in
            part = try ContentDocumentParser.parsePart(html: source, href: href, language: language, readingProgression: progression,
                                                       options: options, from: checkpoint, to: end)
            if let part { observer?(.firstPart(href: href, length: part.offsets.count, bytes: part.bytes)) }
            return part?.document ?? TextDocument(href: href)
        }
        return part
    }
}
