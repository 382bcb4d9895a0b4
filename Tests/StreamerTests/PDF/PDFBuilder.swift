import Foundation
import TestSupport

/// Writes small PDF files for tests: numbered objects, a cross-reference table with the right
/// offsets, a trailer. Objects are given as their text between `N 0 obj` and `endobj`.
struct PDFBuilder {
    var objects: [Data] = []
    /// Extra trailer entries, e.g. `/Encrypt 5 0 R`.
    var trailer = ""
    var header = "%PDF-1.4\n"

    /// Adds an object; returns its number.
    @discardableResult
    mutating func add(_ text: String) -> Int {
        objects.append(Data(text.utf8))
        return objects.count
    }

    /// Adds a stream object with `content`; returns its number.
    @discardableResult
    mutating func addStream(_ content: String, dictionary: String = "") -> Int {
        let bytes = Data(content.utf8)
        var object = Data("<< /Length \(bytes.count) \(dictionary) >>\nstream\n".utf8)
        object += bytes
        object += Data("\nendstream".utf8)
        objects.append(object)
        return objects.count
    }

    var data: Data {
        var out = Data(header.utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(out.count)
            out += Data("\(index + 1) 0 obj\n".utf8) + object + Data("\nendobj\n".utf8)
        }
        let xref = out.count
        out += Data("xref\n0 \(objects.count + 1)\n0000000000 65535 f \n".utf8)
        for offset in offsets { out += Data((String(format: "%010d", offset) + " 00000 n \n").utf8) }
        out += Data("trailer\n<< /Size \(objects.count + 1) /Root 1 0 R \(trailer) >>\nstartxref\n\(xref)\n%%EOF\n".utf8)
        return out
    }

    /// Writes the file into a new temporary folder; returns its path.
    func write(named name: String = "test.pdf") throws -> String {
        let path = Fixtures.temporaryDirectory("pdf") + "/" + name
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A document whose pages show `texts` in Helvetica (object 1 is the catalog, 2 the page
    /// tree, 3 the font, then each page and its content); `catalogExtra` goes into the
    /// catalog. A page text starting with `BT` is a whole content stream.
    ///
    /// - Parameter arabic: give the font a ToUnicode map where A B C D are ح َ ب ي (so "ABCDCD"
    ///   is "حَبيبي" in logical order), H is h, for right-to-left text in any drawing order.
    static func text(pages texts: [String], catalogExtra: String = "", arabic: Bool = false) -> PDFBuilder {
        var builder = PDFBuilder()
        let pageNumbers = texts.indices.map { 4 + 2 * $0 }
        let cmapNumber = 4 + 2 * texts.count
        builder.add("<< /Type /Catalog /Pages 2 0 R \(catalogExtra) >>")
        builder.add("<< /Type /Pages /Kids [\(pageNumbers.map { "\($0) 0 R" }.joined(separator: " "))] /Count \(texts.count) >>")
        builder.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica \(arabic ? "/ToUnicode \(cmapNumber) 0 R" : "") >>")
        for (index, text) in texts.enumerated() {
            builder.add("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 3 0 R >> >> /Contents \(pageNumbers[index] + 1) 0 R >>")
            builder.addStream(text.hasPrefix("BT") ? text : "BT /F1 12 Tf 20 100 Td (\(text)) Tj ET")
        }
        if arabic {
            builder.addStream("""
                /CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Lectern-Test def
                1 begincodespacerange <00> <FF> endcodespacerange
                6 beginbfchar <41> <062D> <42> <064E> <43> <0628> <44> <064A> <20> <0020> <48> <0068> endbfchar
                endcmap CMapName currentdict /CMap defineresource pop end end
                """)
        }
        return builder
    }
}
