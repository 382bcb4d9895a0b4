import Foundation

/// A small PDF whose pages carry labels (`/PageLabels`): four pages labelled i, ii, 1, 2, each
/// showing "Leaf N" (N its place in the file, 1…4). Poppler reads the labels; a reader shows
/// and goes to them (#29 item 8).
public enum LabelledPDF {
    public static let labels = ["i", "ii", "1", "2"]

    public static func write(to path: String) throws {
        var objects: [String] = []
        let pages = (0..<4).map { 4 + 2 * $0 }
        objects.append("<< /Type /Catalog /Pages 2 0 R /PageLabels << /Nums [0 << /S /r >> 2 << /S /D >>] >> >>")
        objects.append("<< /Type /Pages /Kids [\(pages.map { "\($0) 0 R" }.joined(separator: " "))] /Count 4 >>")
        objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
        for (index, number) in pages.enumerated() {
            objects.append("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> /Contents \(number + 1) 0 R >>")
            let content = "BT /F1 12 Tf 20 100 Td (Leaf \(index + 1)) Tj ET"
            objects.append("<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream")
        }
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(index + 1) 0 obj\n\(object)\nendobj\n"
        }
        let xref = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { out += String(format: "%010d", offset) + " 00000 n \n" }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        try Data(out.utf8).write(to: URL(fileURLWithPath: path))
    }
}
