import FoundationEssentials

/// KOReader's annotations, read from its sidecar `metadata.<ext>.lua` (in `<book>.sdr/`), the
/// table `frontend/apps/reader/modules/readerannotation.lua` saves: `annotations`, an array of
/// `{ datetime, datetime_updated, drawer, color, text, text_edited, note, chapter, pageno,
/// page, pos0, pos1, … }`; `doc_props` (`title`, `authors` and `identifiers` one a line);
/// `partial_md5_checksum`. Files from before 2024 keep highlights in `highlight`
/// (`{ [page] = { { datetime, drawer, color, text, pos0, pos1, chapter } } }`), read too.
///
/// For reflowable books `pos0`/`pos1` are crengine XPointers, kept in
/// ``AnnotationTarget/xpointerStart`` and ``AnnotationTarget/xpointerEnd`` with the href left
/// empty for the importer to resolve (``spineIndex(ofXPointer:)``, then the quote). For PDF and
/// other paged documents they are tables whose `page` is kept as ``AnnotationTarget/page``.
public enum KOReaderAnnotations {
    /// The 0-based spine index of a crengine XPointer's `DocFragment[N]` (1-based in the
    /// XPointer): `/body/DocFragment[3]/body/p[2]/text().15` is the third spine item, index 2.
    public static func spineIndex(ofXPointer xpointer: String) -> Int? {
        guard let range = xpointer.firstRange(of: "DocFragment[") else { return nil }
        let digits = xpointer[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard let number = Int(digits), number >= 1 else { return nil }
        return number - 1
    }

    /// Whether the file looks like a KOReader metadata file: its name (`metadata.epub.lua`,
    /// `*.lua`) or its start (a comment, `return`).
    static func recognizes(fileName: String, bytes: [UInt8]) -> Bool {
        if fileName.lowercased().hasSuffix(".lua") { return true }
        let start = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        return start.starts(with: Array("--".utf8)) || start.starts(with: Array("return".utf8))
    }

    static func read(_ bytes: [UInt8], fileName: String, timeZone: TimeZone) throws(AnnotationImportError) -> AnnotatedPublication {
        let root: LuaValue?
        do {
            root = try LuaTableParser.parse(bytes)
        } catch {
            throw .malformedLua(error.description)
        }
        guard let root = root?.table else { throw .invalidStructure("the KOReader metadata is not a table") }
        let properties = root["doc_props"]
        let fixedLayout = isFixedLayout(fileName: fileName, root: root)
        var context = Context(digest: root["partial_md5_checksum"]?.string, fixedLayout: fixedLayout,
                              mediaType: mediaType(fileName: fileName), timeZone: timeZone)
        if let annotations = root["annotations"]?.table {
            for (position, item) in annotations.sequence.enumerated() { context.add(item, position: position) }
        } else if let highlights = root["highlight"]?.table {
            var position = 0
            for pageEntry in highlights.entries {
                for item in pageEntry.value.table?.sequence ?? [] {
                    context.add(item, position: position, legacyPage: pageEntry.key)
                    position += 1
                }
            }
        } else {
            throw .invalidStructure("the KOReader metadata has no annotations")
        }
        return AnnotatedPublication(identifier: lines(properties?["identifiers"]?.string).first,
                                    title: properties?["title"]?.string ?? "", authors: lines(properties?["authors"]?.string),
                                    annotations: context.annotations, koreaderDocumentDigest: context.digest,
                                    skipped: context.skipped)
    }

    private static func lines(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: \.isNewline).map { String($0).trimmed }.filter { !$0.isEmpty }
    }

    /// Paged (PDF, DjVu, comics) when the file says so or its positions are tables.
    private static func isFixedLayout(fileName: String, root: LuaTable) -> Bool {
        let lowered = fileName.lowercased()
        for format in ["pdf", "djvu", "cbz", "cbr", "cb7", "cbt", "xps"] where lowered.hasSuffix(".\(format).lua") { return true }
        return root["annotations"]?.table?.sequence.first?["pos0"]?.table != nil
    }

    private static func mediaType(fileName: String) -> String? {
        let lowered = fileName.lowercased()
        if lowered.hasSuffix(".epub.lua") { return "application/xhtml+xml" }
        if lowered.hasSuffix(".pdf.lua") { return "application/pdf" }
        return nil
    }

    /// The palette colour of a KOReader colour name (`red`, `orange`, `yellow`, `green`,
    /// `olive`, `cyan`, `blue`, `purple`, `gray`) or `#rrggbb`: the nearest of the six; gray
    /// and unknown names, which the palette has no colour for, are the default yellow.
    static func color(_ name: String?) -> HighlightColor {
        switch name?.lowercased() {
        case "olive": .green
        case "gray", "grey", nil: .yellow
        default: ReadiumAnnotationSet.color(name)
        }
    }

    /// The style of a KOReader drawer: `lighten` and `invert` fill, `underscore` underlines,
    /// `strikeout` strikes through.
    static func style(_ drawer: String?) -> HighlightStyle {
        switch drawer {
        case "underscore": .underline
        case "strikeout": .strikethrough
        default: .solid
        }
    }

    private struct Context {
        let digest: String?
        let fixedLayout: Bool
        let mediaType: String?
        let timeZone: TimeZone
        var annotations: [Annotation] = []
        var skipped: [String] = []

        init(digest: String?, fixedLayout: Bool, mediaType: String?, timeZone: TimeZone) {
            self.digest = digest
            self.fixedLayout = fixedLayout
            self.mediaType = mediaType
            self.timeZone = timeZone
        }

        mutating func add(_ value: LuaValue, position: Int, legacyPage: LuaKey? = nil) {
            guard let item = value.table else {
                skipped.append("annotation \(position + 1): not a table")
                return
            }
            let drawer = item["drawer"]?.string
            let note = item["note"]?.string.flatMap { $0.isEmpty ? nil : $0 }
            guard drawer != nil || note != nil || legacyPage != nil else {
                skipped.append("annotation \(position + 1): a page bookmark without a note (Lectern keeps bookmarks apart)")
                return
            }
            var target = AnnotationTarget(href: "", type: mediaType)
            for (key, assign) in [("pos0", true), ("pos1", false)] {
                if let xpointer = item[key]?.string {
                    if assign { target.xpointerStart = xpointer } else { target.xpointerEnd = xpointer }
                } else if assign, let page = item[key]?["page"]?.int, page > 0 {
                    target.page = page
                }
            }
            switch item["page"] {
            case .string(let xpointer)?: target.xpointerStart = target.xpointerStart ?? xpointer
            case .number?: if fixedLayout, target.page == nil, let page = item["page"]?.int, page > 0 { target.page = page }
            default: break
            }
            if target.page == nil, fixedLayout, case .number(let page)? = legacyPage, page >= 1, page < 1e9 { target.page = Int(page) }
            if drawer != nil || legacyPage != nil, let text = item["text"]?.string, !text.isEmpty {
                target.quote = TextQuote(exact: text)
            }
            if let chapter = item["chapter"]?.string, !chapter.isEmpty { target.headings = [chapter] }
            guard target.xpointerStart != nil || target.page != nil || target.quote != nil else {
                skipped.append("annotation \(position + 1): neither a position nor a quote")
                return
            }
            let created = item["datetime"]?.string.flatMap { AnnotationDates.parseKOReader($0, timeZone: timeZone) }
                ?? Date(timeIntervalSince1970: 0)
            let modified = item["datetime_updated"]?.string.flatMap { AnnotationDates.parseKOReader($0, timeZone: timeZone) }
            annotations.append(Annotation(id: identifier(target, datetime: item["datetime"]?.string), target: target,
                                          color: KOReaderAnnotations.color(item["color"]?.string),
                                          style: KOReaderAnnotations.style(drawer), note: note, created: created,
                                          modified: modified.map { max($0, created) }))
        }

        /// A UUID derived from the book and the annotation's place and time, so that
        /// importing the same file twice gives the same ids (and replaces rather than
        /// duplicates).
        private func identifier(_ target: AnnotationTarget, datetime: String?) -> String {
            StableHash.uuid(of: [digest ?? "", target.xpointerStart ?? "", target.xpointerEnd ?? "",
                                 target.page.map(String.init) ?? "", datetime ?? "", target.quote?.exact ?? ""])
        }
    }
}
