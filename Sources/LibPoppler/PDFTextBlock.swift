/// A block of a PDF page's text, as ``PageStructure`` tells them apart.
public struct PDFTextBlock: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Lines set larger than the page's running text.
        case heading
        /// Running text; its lines are kept (joined by `"\n"`) for the reader to reflow.
        case paragraph
        /// A running head or foot, or a page number: a line alone at the top or the bottom of
        /// the page.
        case margin
    }

    public let kind: Kind
    public let text: String

    public init(kind: Kind, text: String) {
        self.kind = kind
        self.text = text
    }
}
