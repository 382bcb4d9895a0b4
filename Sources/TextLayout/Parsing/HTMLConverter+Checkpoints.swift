import LibXML

/// Checkpoints (``ChapterCheckpoint``) recorded while `<body>`'s children are converted, and a
/// conversion that starts at one.
extension HTMLConverter {
    /// Collects the checkpoints of one conversion, about `spacing` source bytes apart.
    final class CheckpointRecorder {
        let spacing: Int
        var checkpoints: [ChapterCheckpoint] = []
        /// The end of the `<body …>` start tag.
        var bodyStart: Int?
        /// What to add to the offsets the parser told: libxml2 switching encodings on a
        /// `<meta charset>` in the head shifts them all by as much.
        var shift = 0
        /// A wrapper about to be walked, whose children are checkpoints too: its start tag's
        /// offset, and the offsets of the wrappers it is in, itself last.
        var wrapperPending: (offset: Int, chain: [Int])?
        /// The source bytes `count` bytes from `offset` (fewer at its end).
        var source: (_ offset: Int, _ count: Int) -> [UInt8] = { _, _ in [] }

        init(spacing: Int) {
            self.spacing = max(1, spacing)
        }

        /// Whether the source at `offset` is a start tag of `name` (what the parser told is
        /// checked: a shifted offset would start a part in the wrong place).
        func startsTag(at offset: Int, named name: String) -> Bool {
            let expected = Array(("<" + name).utf8)
            let found = source(offset, expected.count + 1)
            guard found.count == expected.count + 1, let next = found.last,
                  zip(found, expected).allSatisfy({ ASCII.lowercased($0) == ASCII.lowercased($1) }) else { return false }
            return next == UInt8(ascii: ">") || next == UInt8(ascii: "/") || next == 0x20 || next == 0x0A || next == 0x09 || next == 0x0D
        }

        /// The offset of the first `<body` start tag in the source's first 64 KiB.
        func firstBodyTag() -> Int? {
            let head = source(0, 64 * 1024)
            let tag = Array("<body".utf8)
            guard head.count >= tag.count else { return nil }
            return (0...(head.count - tag.count)).first { start in
                zip(head[start..<(start + tag.count)], tag).allSatisfy { ASCII.lowercased($0) == $1 } && startsTag(at: start, named: "body")
            }
        }

        /// The offset just after the `>` of the start tag at `offset` (quoted `>` skipped).
        func tagEnd(from offset: Int) -> Int? {
            var quote: UInt8?
            var position = offset
            while true {
                let chunk = source(position, 4096)
                if chunk.isEmpty { return nil }
                for byte in chunk {
                    position += 1
                    if let open = quote {
                        if byte == open { quote = nil }
                    } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                        quote = byte
                    } else if byte == UInt8(ascii: ">") {
                        return position
                    }
                }
            }
        }
    }

    /// The plain wrappers whose children may be checkpoints too (a chapter in a `<section>`).
    static let checkpointWrappers: Set<String> = ["section", "div", "article", "main"]

    /// Walks `<body>`'s children like ``walkChildren(_:_:depth:)``, recording a checkpoint
    /// before a child that starts between two blocks, once `spacing` bytes have passed since
    /// the last one; and so inside plain wrappers, two deep.
    func walkBody(_ body: XMLElement, _ context: Context, depth: Int, recording recorder: CheckpointRecorder) {
        if let told = body.sourceOffset {
            let found = recorder.startsTag(at: told, named: "body") ? told : recorder.firstBodyTag()
            recorder.shift = found.map { $0 - told } ?? 0
            recorder.bodyStart = found.flatMap { recorder.tagEnd(from: $0) }
        }
        walkRecording(body, context, depth: depth, recorder, wrappers: [])
    }

    /// The children of `parent` (`<body>` or a wrapper in it, in `wrappers`), recording checkpoints.
    func walkRecording(_ parent: XMLElement, _ context: Context, depth: Int, _ recorder: CheckpointRecorder, wrappers: [Int]) {
        parent.forEachChildNode(releasingVisited: true) { node in
            switch node {
            case .element(let child):
                let name = child.localName.lowercased()
                let byte = child.sourceOffset.map { $0 + recorder.shift }
                if let bodyStart = recorder.bodyStart, let byte,
                   byte >= (recorder.checkpoints.last?.byte ?? bodyStart) + recorder.spacing,
                   builder == nil, pendingMarker == nil, lists.isEmpty, provisionalDepth == 0,
                   recorder.startsTag(at: byte, named: name) {
                    recorder.checkpoints.append(ChapterCheckpoint(bodyStart: bodyStart, byte: byte, offset: offset, blocks: blockCount,
                                                                  links: links.count, noteMarkers: unnumberedNoteMarkers,
                                                                  spacePending: spacePending, wrappers: wrappers))
                }
                if wrappers.count < 2, Self.checkpointWrappers.contains(name), let byte,
                   recorder.startsTag(at: byte, named: name) {
                    recorder.wrapperPending = (byte, wrappers + [byte])
                }
                walk(child, context, depth: depth + 1)
                recorder.wrapperPending = nil
            case .text(let text):
                appendText(text, context)
            }
        }
    }

    /// Walks the children of a wrapper announced by ``walkRecording(_:_:depth:_:wrappers:)``
    /// recording checkpoints; false for any other element.
    func walkWrapperRecording(_ element: XMLElement, _ context: Context, depth: Int) -> Bool {
        guard let recorder = checkpointRecorder, let pending = recorder.wrapperPending,
              element.sourceOffset.map({ $0 + recorder.shift }) == pending.offset else { return false }
        recorder.wrapperPending = nil
        walkRecording(element, context, depth: depth, recorder, wrappers: pending.chain)
        return true
    }

    /// In a part converted from `checkpoint`: `<body>`'s children, where the first elements
    /// are the checkpoint's wrappers (their start tags put in front of the part), walked
    /// into without what a wrapper does at its start (spacing, its anchor), which the whole
    /// did before the checkpoint.
    func walkPart(_ parent: XMLElement, _ context: Context, depth: Int, wrappers: Int) {
        var entered = false
        parent.forEachChildNode(releasingVisited: true) { node in
            switch node {
            case .element(let child):
                guard wrappers > 0, !entered else { return walk(child, context, depth: depth + 1) }
                entered = true
                let attributes = Attributes(child)
                var inner = context
                if let language = attributes.language { inner.language = language }
                if let direction = DirectionAttribute(attributes["dir"]) { inner.direction = direction }
                walkPart(child, inner, depth: depth + 1, wrappers: wrappers - 1)
            case .text(let text):
                appendText(text, context)
            }
        }
    }

    /// Starts this conversion where `checkpoint` stands: its blocks, offsets and link indices
    /// go on from the checkpoint's counts (the links before it are placeholders).
    func start(at checkpoint: ChapterCheckpoint) {
        offset = checkpoint.offset
        firstBlockIndex = checkpoint.blocks
        links = Array(repeating: LinkTarget(href: "", isExternal: false, isNoteReference: false), count: checkpoint.links)
        unnumberedNoteMarkers = checkpoint.noteMarkers
        spacePending = checkpoint.spacePending
        partCheckpoint = checkpoint
    }
}

private enum ASCII {
    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
