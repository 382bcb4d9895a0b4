import FoundationEssentials
import Shared
import TextLayout

/// An XHTML (or tag-soup HTML) content document converted to text by
/// ``ContentDocumentParser`` (ruby in parentheses, or dropped with a right-to-left
/// publication) and laid out by ``LayoutEngine`` at a wide and a narrow justified width, then
/// navigated as the reader does: search, word and paragraph ranges, positions,
/// locators, note lookup, the text shown and copied.
public enum XHTMLLayoutInput {
    static let layouts = [
        LayoutOptions(width: 80),
        LayoutOptions(width: 13, justify: true, paragraphIndent: 4, paragraphSpacing: 1, headingUnderlines: false),
    ]

    public static func consume(_ bytes: [UInt8]) {
        // One conversion per input (they dominate the cost); the input's length picks the
        // variant, so that both are fuzzed and a kept input always replays the same way.
        let variant = bytes.count % 2 == 0
        let document: TextDocument
        do {
            document = try ContentDocumentParser.parse(html: bytes, href: "OEBPS/chapter.xhtml", language: nil,
                                                       readingProgression: variant ? .auto : .rtl,
                                                       options: ContentParseOptions(ruby: variant ? .parenthesized : .dropped))
        } catch {
            _ = error.userMessage
            return
        }
        navigate(document)
        for options in layouts {
            lay(document, options)
        }
    }

    static func navigate(_ document: TextDocument) {
        let length = document.length
        _ = document.plainText
        _ = document.ranges(of: "the")
        _ = document.ranges(of: "É", caseSensitive: true)
        for offset in [0, length / 2, max(0, length - 1)] {
            _ = document.wordRange(containing: offset)
            _ = document.paragraphRange(containing: offset)
            _ = document.blockIndex(containing: offset)
            _ = document.offset(for: document.locator(at: offset))
        }
        _ = document.offset(forProgression: 0.5)
        for link in document.links.prefix(32) {
            if let fragment = link.href.split(separator: "#", maxSplits: 1).dropFirst().first {
                _ = document.offset(ofFragment: String(fragment))
                _ = NoteResolver.note(withID: String(fragment), in: document)
            }
        }
        for note in document.notes.values.prefix(8) { _ = note.plainText }
    }

    static func lay(_ document: TextDocument, _ options: LayoutOptions) {
        let laidOut = LayoutEngine.layout(document, options: options)
        for line in laidOut.lines {
            HarnessInvariant.check(line.width <= options.width,
                                   "a line is \(line.width) cells wide in a column of \(options.width)")
        }
        let count = laidOut.lineCount
        guard count > 0 else { return }
        _ = laidOut.displayText(lines: 0..<count)
        _ = laidOut.copyText(lines: 0..<min(count, 40))
        _ = laidOut.highlights(for: 0..<document.length)
        for index in [0, count / 2, count - 1] {
            let locator = laidOut.locator(forLine: index)
            _ = laidOut.lineIndex(for: locator)
            _ = laidOut.progression(ofLine: index)
        }
        _ = laidOut.lineIndex(forProgression: 0.5)
        _ = laidOut.lineIndex(containing: document.length / 2)
        _ = laidOut.position(of: document.length / 2)
        _ = laidOut.offset(atLine: count - 1, column: options.width)
        for anchor in document.anchors.keys.prefix(8) { _ = laidOut.lineIndex(forFragment: anchor) }
    }
}
