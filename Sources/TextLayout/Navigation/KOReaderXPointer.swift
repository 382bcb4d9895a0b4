/// A place in a reflowable book as KOReader (crengine) writes it: the `progress` of its
/// progress sync (kosync) and the `pos0`/`pos1` of its highlights, for example
/// `/body/DocFragment[3]/body/div/p[4]/text().17`.
///
/// Parsing and printing only; ``KOReaderXPointerMap`` turns one into a Lectern offset of a
/// chapter's ``TextDocument`` and back.
///
/// ## KOReader's conventions
///
/// Read in koreader/crengine (`crengine/src/lvtinydom.cpp`: `ldomXPointer::toStringV1`,
/// `toStringV2`, `ldomDocument::createXPointerV1`/`V2`, `ParseXPathStep`, `getNodeByIndex`,
/// `ldomElementWriter::onText`, `ldomNode::autoboxChildren`; `crengine/src/lvxml.cpp`:
/// `PreProcessXmlString`, `LVXMLParser::ReadText`; `crengine/src/epubfmt.cpp`: the
/// `DocFragment` appender):
///
/// - An EPUB is one DOM: `<body>` holds one `<DocFragment>` per spine item, each holding the
///   item's `<body>` (its `<html>` becomes the `DocFragment`, its `<head>` is left out). So
///   `DocFragment[N]` is the 1-based spine index (since crengine's DOM version 20240114 every
///   spine item gets one, not only XHTML ones).
/// - A step is `name[k]`: the k-th (1-based) child element of that name. Written by
///   `toStringV2` (the default) the `[k]` is left out when the element is the only one of its
///   name among its siblings (`/body/div/p`), and always written from DOM version 20260812
///   (`p[1]`). Read back, a step without `[k]` means the first of that name. Text nodes are
///   counted the same way among text siblings: `text()`, `text()[2]`.
/// - Boxing elements crengine inserts for rendering (`autoBoxing`, `floatBox`, `inlineBox`,
///   `tabularBox`, `rubyBox`, pseudo elements) are transparent in `toStringV2` pointers: their
///   children count as children of the box's parent. Older `toStringV1` pointers may name
///   them; such a step is skipped here.
/// - `.N` ends the pointer. After `text()` it is an offset in that text node, counted in
///   Unicode code points (crengine keeps text as UTF-32; not UTF-16 units, not grapheme
///   clusters), from 0 to the node's length. After an element it is a child index (0 = before
///   the first child): `/body/DocFragment[3]/body/div/p[4].0`. Without `.N` the pointer names
///   the element itself (`/body/DocFragment[3]/body/div/p[4]`): its start.
/// - Text is counted after crengine's parse: entities decoded; outside `white-space: pre`,
///   every CR, LF and tab is a space and each run of spaces is one space (a single leading or
///   trailing space of a node stays); in `pre`, CR LF is LF and tabs are expanded to the next
///   multiple of 8; a line feed right after `<pre>` is dropped. A text node that is only white
///   space is dropped when it is the first child of a block element, and, in an element with
///   a block child, at either end of each run of inline content (which crengine autoboxes).
/// - An index of 0 (`p[0]`) never matches; a number is decimal digits only.
public struct KOReaderXPointer: Sendable, Hashable, CustomStringConvertible {
    /// One element step under the chapter's `<body>`.
    public struct Step: Sendable, Hashable {
        /// The element name (`p`, `div`…), as written.
        public var name: String
        /// The 1-based index among same-name siblings; nil when the pointer leaves it out
        /// (the element is the first, and when written by KOReader, the only one).
        public var index: Int?

        public init(name: String, index: Int? = nil) {
            self.name = name
            self.index = index
        }
    }

    /// What the pointer ends on.
    public enum Target: Sendable, Hashable {
        /// `…/text()[index].offset`: a code point offset in a text node (index nil: `text()`).
        case text(index: Int?, offset: Int)
        /// `…/p[4]` (childOffset nil) or `…/p[4].N`: an element, or the point before its
        /// child N.
        case element(childOffset: Int?)
    }

    /// The largest number accepted in an index or offset: more than any chapter holds, small
    /// enough that arithmetic on it never overflows.
    public static let maximumNumber = 100_000_000
    /// The most steps accepted: crengine's own DOM is far shallower.
    public static let maximumDepth = 1_000

    /// The 1-based spine index (`DocFragment[N]`).
    public var fragment: Int
    /// Whether `DocFragment` was written without `[N]` (a one-item spine).
    public var fragmentIndexOmitted: Bool
    /// The element steps after `/body/DocFragment[N]/body`.
    public var steps: [Step]
    public var target: Target

    public init(fragment: Int, steps: [Step], target: Target, fragmentIndexOmitted: Bool = false) {
        self.fragment = fragment
        self.steps = steps
        self.target = target
        self.fragmentIndexOmitted = fragmentIndexOmitted && fragment == 1
    }

    /// Reads a pointer written by KOReader (or ``description``); nil when it is not one of a
    /// reflowable EPUB chapter: it must start `/body/DocFragment[N]/body`, and every step be
    /// well formed.
    public init?(parsing text: String) {
        guard text.utf8.count <= 64 * 1024 else { return nil }
        var scanner = Scanner(text)
        // `body[1]` and `DocFragment[1]` are how KOReader writes them from DOM version 20260812.
        guard Self.isBody(scanner.element()),
              let fragment = scanner.element(), fragment.name == "DocFragment", (fragment.index ?? 1) >= 1,
              Self.isBody(scanner.element()) else { return nil }
        var steps: [Step] = []
        var target = Target.element(childOffset: nil)
        while !scanner.isAtEnd {
            if scanner.peek == UInt8(ascii: ".") {
                scanner.advance()
                guard let offset = scanner.number(), scanner.isAtEnd else { return nil }
                target = .element(childOffset: offset)
                break
            }
            guard let step = scanner.element(), steps.count < Self.maximumDepth else { return nil }
            if step.name == "text()" {
                guard step.index.map({ $0 >= 1 }) ?? true else { return nil }
                // `text()` alone (crengine's offset -1) is the start of the node.
                var offset = 0
                if !scanner.isAtEnd {
                    guard scanner.peek == UInt8(ascii: ".") else { return nil }
                    scanner.advance()
                    guard let number = scanner.number(), scanner.isAtEnd else { return nil }
                    offset = number
                }
                target = .text(index: step.index, offset: offset)
                break
            }
            guard step.index.map({ $0 >= 1 }) ?? true else { return nil }
            steps.append(step)
        }
        self.init(fragment: fragment.index ?? 1, steps: steps, target: target, fragmentIndexOmitted: fragment.index == nil)
    }

    private static func isBody(_ step: Step?) -> Bool {
        step?.name == "body" && (step?.index ?? 1) == 1
    }

    /// The pointer as KOReader writes it.
    public var description: String {
        var result = "/body/DocFragment" + (fragmentIndexOmitted ? "" : "[\(fragment)]") + "/body"
        for step in steps {
            result += "/" + step.name + (step.index.map { "[\($0)]" } ?? "")
        }
        switch target {
        case .text(let index, let offset):
            result += "/text()" + (index.map { "[\($0)]" } ?? "") + ".\(offset)"
        case .element(let childOffset):
            if let childOffset { result += ".\(childOffset)" }
        }
        return result
    }

    /// Reads `/name[k]` steps and numbers off UTF-8 bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ text: String) { bytes = Array(text.utf8) }

        var isAtEnd: Bool { position >= bytes.count }
        var peek: UInt8? { isAtEnd ? nil : bytes[position] }
        mutating func advance() { position += 1 }

        /// `/name` or `/name[k]`; nil when malformed.
        mutating func element() -> Step? {
            guard peek == UInt8(ascii: "/") else { return nil }
            advance()
            let start = position
            while let byte = peek, byte != UInt8(ascii: "/"), byte != UInt8(ascii: "["), byte != UInt8(ascii: ".") {
                // `text()` is the one name with parentheses; names are otherwise XML names.
                guard byte > 0x20 else { return nil }
                advance()
            }
            // `text()` contains no dot, but element names may (`svg:g` has none either): a dot
            // always starts the offset, as in crengine's ParseXPathStep.
            guard position > start else { return nil }
            let name = String(decoding: bytes[start..<position], as: UTF8.self)
            guard name == "text()" || !name.contains(where: { $0 == "(" || $0 == ")" }) else { return nil }
            guard peek == UInt8(ascii: "[") else { return Step(name: name) }
            advance()
            guard let index = number(), peek == UInt8(ascii: "]") else { return nil }
            advance()
            guard isAtEnd || peek == UInt8(ascii: "/") || peek == UInt8(ascii: ".") else { return nil }
            return Step(name: name, index: index)
        }

        /// Decimal digits, at most ``KOReaderXPointer/maximumNumber``.
        mutating func number() -> Int? {
            var value = 0
            let start = position
            while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                guard value <= KOReaderXPointer.maximumNumber else { return nil }
                advance()
            }
            return position > start ? value : nil
        }
    }
}
