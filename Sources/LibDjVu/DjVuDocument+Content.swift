import CLecternDjVu

/// One block of a page's hidden text: a paragraph (its lines joined by `"\n"`), or the text
/// of a column or region that has no paragraphs.
public struct DjVuTextBlock: Sendable, Hashable {
    public let text: String
}

/// One entry of a DjVu outline (bookmarks).
public struct DjVuOutlineItem: Sendable, Hashable {
    public var title: String
    /// The 0-based page it goes to; nil when its target is no page of this document.
    public var pageIndex: Int?
    public var children: [DjVuOutlineItem]
}

/// The document's metadata annotations (`djvused set-meta`), keys in lower case.
public struct DjVuMetadata: Sendable, Hashable {
    public var title: String?
    public var author: String?
    public var values: [String: String]
}

extension DjVuDocument {
    /// Deeper outline entries are left out: a hostile outline may nest without end.
    public static let maxOutlineDepth = 32
    /// At most this many outline entries are read.
    public static let maxOutlineEntries = 10_000

    /// The hidden text layer of page `index` in blocks, in reading order; an empty array when
    /// the page has no text layer, nil when the page does not exist or cannot be read.
    public func textBlocks(ofPage index: Int) -> [DjVuTextBlock]? {
        guard index >= 0, index < pageCount else { return nil }
        return withDocument { handles -> [DjVuTextBlock]? in
            var pump = lectern_djvu_pump_state()
            let text = handles.withPump(&pump) { pump in lectern_djvu_page_text(handles.context, handles.document, Int32(index), pump) }
            defer { lectern_djvu_miniexp_release(handles.document, text) }
            if lectern_miniexp_is_nil(text) != 0 { return [] }
            guard miniexp_consp(text) != 0 else { return nil }   // `failed` or `stopped`
            var blocks: [DjVuTextBlock] = []
            TextZones.collect(text, into: &blocks)
            return blocks
        }
    }

    /// The outline, nested, its `#page` and `#name` targets resolved to page indices.
    public func outline() -> [DjVuOutlineItem] {
        withDocument { handles -> [DjVuOutlineItem]? in
            var pump = lectern_djvu_pump_state()
            let outline = handles.withPump(&pump) { pump in lectern_djvu_outline(handles.context, handles.document, pump) }
            defer { lectern_djvu_miniexp_release(handles.document, outline) }
            guard miniexp_consp(outline) != 0, Expression.symbol(miniexp_car(outline)) == "bookmarks" else { return [] }
            let names = pageNames(handles, pump: &pump)
            var budget = Self.maxOutlineEntries
            return Self.outlineItems(miniexp_cdr(outline), names: names, pageCount: pageCount, depth: 0, budget: &budget)
        } ?? []
    }

    /// The metadata annotations of the document (title, author, and the rest).
    public func metadata() -> DjVuMetadata {
        let values = withDocument { handles -> [String: String]? in
            var pump = lectern_djvu_pump_state()
            let annotations = handles.withPump(&pump) { pump in lectern_djvu_annotations(handles.context, handles.document, pump) }
            defer { lectern_djvu_miniexp_release(handles.document, annotations) }
            var values: [String: String] = [:]
            for annotation in Expression.list(annotations) where Expression.symbol(miniexp_car(annotation)) == "metadata" {
                for entry in Expression.list(miniexp_cdr(annotation)) {
                    guard let key = Expression.symbol(miniexp_car(entry)),
                          let value = Expression.string(miniexp_car(miniexp_cdr(entry))) else { continue }
                    let trimmed = value.trimmingSpaces
                    if !trimmed.isEmpty { values[key.lowercased()] = trimmed }
                }
            }
            return values
        } ?? [:]
        return DjVuMetadata(title: values["title"], author: values["author"], values: values)
    }

    /// Page indices by component file id and title, for `#name` outline targets.
    private func pageNames(_ handles: Handles, pump: inout lectern_djvu_pump_state) -> [String: Int] {
        var names: [String: Int] = [:]
        let files = Int(lectern_djvu_document_get_filenum(handles.document))
        for file in 0..<min(files, Self.maxPageCount * 2) {
            var kind: CChar = 0, page: Int32 = 0
            var identifier: UnsafePointer<CChar>?, title: UnsafePointer<CChar>?
            let ok = handles.withPump(&pump) { pump in
                lectern_djvu_file_info(handles.context, handles.document, Int32(file), &kind, &page, &identifier, &title, pump)
            }
            guard ok != 0, kind == CChar(UInt8(ascii: "P")), page >= 0 else { continue }
            for name in [identifier, title].compactMap({ $0 }).map({ String(cString: $0) }) where names[name] == nil {
                names[name] = Int(page)
            }
        }
        return names
    }

    private static func outlineItems(_ entries: miniexp_t?, names: [String: Int], pageCount: Int, depth: Int,
                                     budget: inout Int) -> [DjVuOutlineItem] {
        guard depth < maxOutlineDepth else { return [] }
        var items: [DjVuOutlineItem] = []
        for entry in Expression.list(entries) {
            guard budget > 0 else { break }
            budget -= 1
            guard miniexp_consp(entry) != 0 else { continue }
            let title = Expression.string(miniexp_car(entry))?.trimmingSpaces ?? ""
            let target = Expression.string(miniexp_car(miniexp_cdr(entry))) ?? ""
            let children = outlineItems(miniexp_cdr(miniexp_cdr(entry)), names: names, pageCount: pageCount, depth: depth + 1, budget: &budget)
            items.append(DjVuOutlineItem(title: title, pageIndex: pageIndex(of: target, names: names, pageCount: pageCount), children: children))
        }
        return items
    }

    /// `#12` is page 12 (from 1); `#name` a component file's id or title.
    static func pageIndex(of target: String, names: [String: Int], pageCount: Int) -> Int? {
        guard target.hasPrefix("#") else { return nil }
        let name = String(target.dropFirst())
        if let number = Int(name), number >= 1, number <= pageCount { return number - 1 }
        return names[name]
    }
}

/// Reading minilisp s-expressions.
enum Expression {
    /// The elements of a list (stops at a non-list tail).
    static func list(_ expression: miniexp_t?) -> [miniexp_t?] {
        var elements: [miniexp_t?] = []
        var rest = expression
        while miniexp_consp(rest) != 0 {
            elements.append(miniexp_car(rest))
            rest = miniexp_cdr(rest)
        }
        return elements
    }

    static func symbol(_ expression: miniexp_t?) -> String? {
        guard miniexp_symbolp(expression) != 0, let name = lectern_miniexp_to_name(expression) else { return nil }
        return String(cString: name)
    }

    static func string(_ expression: miniexp_t?) -> String? {
        guard lectern_miniexp_stringp(expression) != 0 else { return nil }
        var pointer: UnsafePointer<CChar>?
        let length = lectern_miniexp_to_lstr(expression, &pointer)
        guard let pointer else { return nil }
        // Hidden text may hold a NUL or invalid UTF-8: decoded with replacement, never trusted as C.
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
    }
}

/// The hidden text's zones (`page`, `column`, `region`, `para`, `line`): each is
/// `(kind x0 y0 x1 y1 children…)` or `(kind x0 y0 x1 y1 "text")`.
enum TextZones {
    static func collect(_ zone: miniexp_t?, into blocks: inout [DjVuTextBlock], depth: Int = 0) {
        guard depth < 8, miniexp_consp(zone) != 0 else { return }
        let kind = Expression.symbol(miniexp_car(zone))
        let contents = Array(Expression.list(zone).dropFirst(5))
        if kind == "para" || kind == "line" || contents.contains(where: { lectern_miniexp_stringp($0) != 0 }) {
            let text = lines(zone, depth: depth).joined(separator: "\n")
            if !text.isEmpty { blocks.append(DjVuTextBlock(text: text)) }
            return
        }
        for child in contents { collect(child, into: &blocks, depth: depth + 1) }
    }

    /// The lines of a zone, each trimmed, empty ones left out.
    private static func lines(_ zone: miniexp_t?, depth: Int) -> [String] {
        guard depth < 8, miniexp_consp(zone) != 0 else { return [] }
        let kind = Expression.symbol(miniexp_car(zone))
        let contents = Array(Expression.list(zone).dropFirst(5))
        let own = contents.compactMap(Expression.string)
        if !own.isEmpty {
            let text = own.joined(separator: kind == "line" ? " " : "\n")
            return text.split(separator: "\n").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        }
        return contents.flatMap { lines($0, depth: depth + 1) }
    }
}

extension String {
    var trimmingSpaces: String {
        var trimmed = Substring(self)
        while let first = trimmed.first, first.isWhitespace { trimmed.removeFirst() }
        while let last = trimmed.last, last.isWhitespace { trimmed.removeLast() }
        return String(trimmed)
    }
}
