import FoundationEssentials
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
    /// end), telling the observer of it as a first part (its offsets, the bytes read).
    /// Nil when the resource does not match the checkpoints (another edition) or is not HTML.
    /// `stoppingAt`: the conversion ends with the block that reaches that text offset, when
    /// one does before `end`.
    ///
    /// Only the head, the wrappers' start tags and the stretch are read, by ranges; plain text
    /// (whose checkpoints are those of the `<pre>` it is converted to), and a resource of unknown
    /// length read to its end, are read whole.
    public func loadPart(_ link: Link, from checkpoint: ChapterCheckpoint, to end: ChapterCheckpoint?,
                         stoppingAt stopOffset: Int? = nil) throws(ContentLoadError) -> ChapterPart? {
        var part: ChapterPart?
        _ = try convert(link, beforeReading: { opened in
            guard !opened.isPlainText else { return nil }
            let endByte: Int
            if let end {
                endByte = end.byte
            } else if case .success(let length) = opened.resource.length, length <= UInt64(Int.max) {
                endByte = Int(length)
            } else {
                return nil
            }
            var read = 0
            part = try? ContentDocumentParser.parsePart(href: opened.href, language: opened.language,
                                                        readingProgression: opened.progression, options: options,
                                                        from: checkpoint, toByte: endByte, stoppingAt: stopOffset) { range in
                guard case .success(let data) = opened.resource.read(range: UInt64(range.lowerBound)..<UInt64(range.upperBound)) else {
                    return nil
                }
                read += data.count
                return [UInt8](data)
            }
            if let part { observer?(.firstPart(href: opened.href, length: part.offsets.count, bytes: read)) }
            return part?.document ?? TextDocument(href: opened.href)
        }) { source, href, language, progression throws(ContentParseError) in
            part = try ContentDocumentParser.parsePart(html: source, href: href, language: language, readingProgression: progression,
                                                       options: options, from: checkpoint, to: end, stoppingAt: stopOffset)
            if let part { observer?(.firstPart(href: href, length: part.offsets.count, bytes: source.count)) }
            return part?.document ?? TextDocument(href: href)
        }
        return part
    }
}
