/// One character's box on a PDF page, from `poppler_page_get_text_layout` (top-left origin,
/// points).
public struct PDFCharacterBox: Sendable, Hashable {
    public var x1: Double, y1: Double, x2: Double, y2: Double

    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    public var width: Double { x2 - x1 }
}

/// A page's text as poppler lays it out: the text, and where each of its characters sits.
/// What the text means (headings, paragraphs, page numbers) is the Streamer's business.
public struct PDFPageLayout: Sendable, Hashable {
    /// The page's text in reading order, right-to-left runs in logical order, lines ended by
    /// `"\n"` (see ``PDFDocument/text(ofPage:)``).
    public let text: String
    /// The box of each Unicode scalar of ``text``, in order, as poppler gives them; nil when
    /// poppler gives no layout. Poppler does not promise one per scalar: check the counts.
    public let boxes: [PDFCharacterBox]?

    public init(text: String, boxes: [PDFCharacterBox]?) {
        self.text = text
        self.boxes = boxes
    }
}
