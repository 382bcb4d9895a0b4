import FoundationEssentials

/// The document information of a PDF (its `/Info` dictionary, as poppler decodes it). Empty
/// and blank values are nil.
public struct PDFMetadata: Sendable, Hashable {
    public var title: String?
    public var author: String?
    public var subject: String?
    public var keywords: String?
    /// The application that made the original document (e.g. "Writer", "LaTeX with hyperref").
    public var creator: String?
    /// The application that wrote the PDF (e.g. "pdfTeX-1.40.23").
    public var producer: String?
    public var creationDate: Date?
    public var modificationDate: Date?

    public init(title: String? = nil, author: String? = nil, subject: String? = nil, keywords: String? = nil,
                creator: String? = nil, producer: String? = nil, creationDate: Date? = nil, modificationDate: Date? = nil) {
        self.title = title
        self.author = author
        self.subject = subject
        self.keywords = keywords
        self.creator = creator
        self.producer = producer
        self.creationDate = creationDate
        self.modificationDate = modificationDate
    }
}
