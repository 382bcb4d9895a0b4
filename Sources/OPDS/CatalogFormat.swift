/// What an acquisition link gives, in words.
public enum CatalogFormat {
    public static let lcpLicense = "application/vnd.readium.lcp.license.v1.0+json"
    public static let adobe = "application/vnd.adobe.adept+xml"

    /// `EPUB (LCP)`, `PDF`, `EPUB (Adobe DRM)`.
    public static func name(of link: OPDSLink) -> String {
        let types = link.acquisitionTypes.map { $0.split(separator: ";").first.map(String.init) ?? $0 }
        let final = types.last { !$0.contains("atom+xml") && $0 != lcpLicense && $0 != adobe && $0 != "text/html" }
        var name = final.map(shortName) ?? (types.last ?? "unknown format")
        if types.contains(lcpLicense) { name += " (LCP)" }
        if types.contains(adobe) { name += " (Adobe DRM)" }
        return name
    }

    public static func shortName(_ type: String) -> String {
        switch type {
        case "application/epub+zip": "EPUB"
        case "application/pdf": "PDF"
        case "application/audiobook+zip", "application/audiobook+json": "audiobook"
        case "application/webpub+json": "web publication"
        case "application/x-mobipocket-ebook", "application/x-mobi8-ebook": "Mobipocket"
        case "application/vnd.comicbook+zip", "application/x-cbz": "CBZ"
        case "application/vnd.comicbook-rar", "application/x-cbr": "CBR"
        case "application/x-fictionbook+xml", "text/fb2+xml": "FB2"
        case "application/kepub+zip": "Kobo EPUB"
        case "application/vnd.amazon.ebook": "Kindle"
        case "application/zip": "ZIP"
        case "application/rtf", "text/rtf": "RTF"
        case "text/plain": "text"
        case "text/html", "application/xhtml+xml": "HTML"
        case "image/vnd.djvu": "DjVu"
        default: type
        }
    }

    /// `borrow: EPUB (LCP) — available until …`, `buy: EPUB — 4.99 EUR`.
    public static func describe(_ link: OPDSLink) -> String {
        let kind = link.rels.first { $0.hasPrefix(OPDSRel.acquisition) }.map {
            $0 == OPDSRel.acquisition ? "get" : String($0.dropFirst(OPDSRel.acquisition.count + 1))
        } ?? "get"
        var text = kind + ": " + name(of: link)
        if !link.properties.prices.isEmpty {
            text += " — " + link.properties.prices.map { "\($0.value) \($0.currency)" }.joined(separator: ", ")
        }
        if let availability = link.properties.availability {
            text += " — \(availability.state)" + (availability.until.map { " until \($0)" } ?? "")
        }
        return text
    }
}
