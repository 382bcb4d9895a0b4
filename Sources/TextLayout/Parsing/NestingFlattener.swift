/// Keeps a content document's elements within the nesting libxml2 can build.
///
/// libxml2 stops parsing at 256 levels of element nesting (without `XML_PARSE_HUGE`, which only
/// moves the limit) and the recovering parser returns the tree it had: everything after that
/// point of the chapter would silently disappear. Documents nested deeper than ``maxDepth``
/// have their start and end tags beyond it removed, so their text is laid out flattened into
/// the deepest element kept instead of being lost.
///
/// The scan is a tag tokenizer, not a parser: comments, CDATA, processing instructions,
/// declarations, quoted attribute values, void elements, self-closing tags and raw-text
/// elements (`script`, `style`, `textarea`, `title`) are skipped, and the HTML rules that close
/// an open `p`, `li`, `dt`/`dd`, `td`/`th`, `tr` or `option` implicitly are followed, so that tag
/// soup such as thousands of unclosed `<p>` is not mistaken for depth.
public enum NestingFlattener {
    /// The deepest element nesting kept (libxml2 refuses the 256th level).
    public static let maxDepth = 200

    /// `bytes` with the tags nested deeper than `maxDepth` removed, or nil when no element is
    /// that deep (the common case: nothing is copied).
    public static func flattened(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = maxDepth) -> [UInt8]? {
        var scanner = TagScanner(bytes: bytes, maxDepth: maxDepth)
        scanner.scan()
        guard !scanner.removed.isEmpty else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var start = 0
        for range in scanner.removed {
            output.append(contentsOf: bytes[start..<range.lowerBound])
            start = range.upperBound
        }
        output.append(contentsOf: bytes[start..<bytes.count])
        return output
    }
}

/// One pass over the markup, noting the byte ranges of the tags to remove.
private struct TagScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    /// Open elements: name and whether its tags are removed.
    var stack: [(name: TagName, removed: Bool)] = []
    var removed: [Range<Int>] = []
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    static let voidElements: Set<TagName> = Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                                                 "meta", "param", "source", "track", "wbr"].map(TagName.init))
    static let rawTextElements: Set<TagName> = Set(["script", "style", "textarea", "title"].map(TagName.init))
    static let paragraph = TagName("p")
    /// Start tags that close an open `p` (HTML's "close a p element").
    static let closesParagraph: Set<TagName> = Set([
        "address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset", "figcaption", "figure",
        "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "main", "nav", "ol", "p", "pre",
        "section", "table", "ul",
    ].map(TagName.init))
    /// Start tags that close an open element of the same family.
    static let siblingFamilies: [TagName: Set<TagName>] = {
        func set(_ names: [String]) -> Set<TagName> { Set(names.map(TagName.init)) }
        return [
            TagName("li"): set(["li"]), TagName("dt"): set(["dt", "dd"]), TagName("dd"): set(["dt", "dd"]),
            TagName("td"): set(["td", "th"]), TagName("th"): set(["td", "th"]), TagName("tr"): set(["tr", "td", "th"]),
            TagName("option"): set(["option"]),
        ]
    }()

    mutating func scan() {
        while let open = find(UInt8(ascii: "<"), from: index) {
            index = open + 1
            guard index < bytes.count else { return }
            switch bytes[index] {
            case UInt8(ascii: "!"):
                if starts(with: "!--", at: index) {
                    index = end(of: "-->", from: index + 3)
                } else if starts(with: "![CDATA[", at: index) {
                    index = end(of: "]]>", from: index + 8)
                } else {
                    index = end(of: ">", from: index)
                }
            case UInt8(ascii: "?"):
                index = end(of: ">", from: index)
            case UInt8(ascii: "/"):
                endTag(from: open)
            default:
                if isLetter(bytes[index]) { startTag(from: open) }
            }
        }
    }

    mutating func startTag(from open: Int) {
        let name = readName()
        let selfClosing = skipAttributes()
        if Self.voidElements.contains(name) { return }
        if Self.closesParagraph.contains(name), stack.last?.name == Self.paragraph { closeTop() }
        if let family = Self.siblingFamilies[name] {
            while let top = stack.last?.name, family.contains(top) { closeTop() }
        }
        if selfClosing { return }
        let isRemoved = stack.count >= maxDepth
        if isRemoved { removed.append(open..<index) }
        if Self.rawTextElements.contains(name) {
            // Their content is text: a `<` inside is no tag. The end tag is handled as usual.
            index = rawTextEnd(of: name)
        }
        stack.append((name, isRemoved))
    }

    mutating func endTag(from open: Int) {
        index += 1
        let name = readName()
        index = end(of: ">", from: index)
        // A stray end tag closes nothing; one that matches an open element closes the
        // elements opened inside it too, as HTML's parser does.
        // (Looked for near the top only: a hostile run of stray end tags under deep nesting
        // must not cost depth × tags.)
        let searched = stack.indices.suffix(1024)
        guard let match = searched.last(where: { stack[$0].name == name }) else { return }
        if stack[match].removed { removed.append(open..<index) }
        stack.removeSubrange(match...)
    }

    /// An element left open when its parent's sibling starts: it has no end tag to remove.
    mutating func closeTop() {
        stack.removeLast()
    }

    // MARK: - Bytes

    func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// The tag name at `index`, without a namespace prefix.
    mutating func readName() -> TagName {
        var name = TagName()
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte <= 0x20 { break }
            index += 1
            if byte == UInt8(ascii: ":") { name = TagName() } else { name.append(byte) }
        }
        return name
    }

    /// Skips to after the tag's `>`, over quoted attribute values; whether it ended in `/>`.
    mutating func skipAttributes() -> Bool {
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index >= 2 && bytes[index - 2] == UInt8(ascii: "/")
            }
        }
        return false
    }

    /// The position of the `</name` that ends a raw-text element (or the end of the bytes).
    func rawTextEnd(of name: TagName) -> Int {
        var position = index
        while let open = find(UInt8(ascii: "<"), from: position) {
            if open + 1 < bytes.count, bytes[open + 1] == UInt8(ascii: "/") {
                var cursor = open + 2, candidate = TagName()
                while cursor < bytes.count, isLetter(bytes[cursor]) {
                    candidate.append(bytes[cursor])
                    cursor += 1
                }
                if candidate == name { return open }
            }
            position = open + 1
        }
        return bytes.count
    }

    func find(_ byte: UInt8, from start: Int) -> Int? {
        var position = start
        while position < bytes.count {
            if bytes[position] == byte { return position }
            position += 1
        }
        return nil
    }

    func starts(with text: StaticString, at position: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        return text.withUTF8Buffer { prefix in
            (0..<count).allSatisfy { bytes[position + $0] == prefix[$0] }
        }
    }

    /// The position just after the next `terminator` at or after `start` (or the end).
    func end(of terminator: StaticString, from start: Int) -> Int {
        let first = terminator.withUTF8Buffer { $0[0] }
        var position = start
        while let candidate = find(first, from: position) {
            if starts(with: terminator, at: candidate) { return candidate + terminator.utf8CodeUnitCount }
            position = candidate + 1
        }
        return bytes.count
    }
}

/// A tag name, lower-cased, in two words (the first 16 bytes and the length): comparing and
/// hashing it allocates nothing, which matters on chapters of millions of tags. Longer names
/// that share their first 16 bytes compare equal, which no HTML element name does.
struct TagName: Hashable {
    private var head: UInt64 = 0
    private var tail: UInt64 = 0
    private var count: UInt32 = 0

    init() {}

    init(_ text: String) {
        for byte in text.utf8 { append(byte) }
    }

    mutating func append(_ byte: UInt8) {
        let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
        if count < 8 {
            head |= UInt64(lower) << (8 * UInt64(count))
        } else if count < 16 {
            tail |= UInt64(lower) << (8 * UInt64(count - 8))
        }
        count &+= 1
    }
}
