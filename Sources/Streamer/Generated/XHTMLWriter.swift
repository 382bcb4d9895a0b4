/// Writes the XHTML documents generated for formats that have none of their own (plain text,
/// FB2, Markdown): escaped text, and the one document shell they share.
enum XHTMLWriter {
    /// `text` with `&`, `<`, `>` and `"` escaped, and the characters XML forbids (C0 controls
    /// other than tab and line feed) dropped.
    static func escape(_ text: some StringProtocol) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case "\r": break
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A whole XHTML document around `body` (markup already escaped).
    static func document(title: String, language: String?, body: String) -> String {
        let lang = language.map { " xml:lang=\"\(escape($0))\" lang=\"\(escape($0))\"" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"\(lang)>
            <head><meta charset="UTF-8"/><title>\(escape(title))</title></head>
            <body>
            \(body)
            </body>
            </html>

            """
    }
}
