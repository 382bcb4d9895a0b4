import FoundationEssentials
import LibPoppler

/// A PDF and the password it is opened with, through poppler (``PDFDocument``): metadata,
/// permissions, outline, page labels and the text of a few pages.
///
/// Input layout: the password up to the first NUL byte, then the PDF. Without a NUL the whole
/// input is the PDF, opened without a password.
public enum PDFInput {
    /// Pages whose text is extracted at most: the first ones and the last.
    static let maxPagesRead = 4

    public static func consume(_ bytes: [UInt8]) {
        let password: String?
        let pdf: [UInt8]
        if let split = bytes.firstIndex(of: 0) {
            password = String(decoding: bytes[..<split], as: UTF8.self)
            pdf = Array(bytes[(split + 1)...])
        } else {
            password = nil
            pdf = bytes
        }
        let document: PDFDocument
        do {
            document = try PDFDocument(data: Data(pdf), password: password)
        } catch {
            _ = error.description
            return
        }
        defer { document.close() }
        _ = (document.metadata, document.permissions)
        _ = document.outline()
        _ = document.pageLabels()
        let count = document.pageCount
        var pages = Array(0..<min(count, maxPagesRead - 1))
        if count > 0 { pages.append(count - 1) }
        for index in pages {
            _ = document.pageLabel(at: index)
            _ = document.text(ofPage: index)
        }
    }
}
