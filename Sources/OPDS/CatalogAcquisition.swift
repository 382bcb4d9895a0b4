import Shared

/// Which acquisition link of a publication Lectern takes, and the file it saves it as.
public enum CatalogAcquisition {
    /// Open access first, then a plain acquisition, then an LCP borrow or buy; never a sample.
    public static func choose(_ links: [OPDSLink]) -> OPDSLink? {
        let usable = links.filter { link in
            !isSample(link) && isSupported(link)
        }
        return usable.first { $0.hasRel(OPDSRel.openAccess) }
            ?? usable.first { $0.hasRel(OPDSRel.acquisition) }
            ?? usable.first { isLCP($0) }
    }

    /// A sample or preview: opened without being added to the library.
    public static func isSample(_ link: OPDSLink) -> Bool {
        link.hasRel(OPDSRel.sample) || link.hasRel(OPDSRel.preview)
    }

    /// Whether the link gives an LCP license (by its type or an indirect type).
    public static func isLCP(_ link: OPDSLink) -> Bool {
        link.acquisitionTypes.contains(CatalogFormat.lcpLicense)
    }

    /// Whether Lectern can follow the link: not Adobe DRM, not a web page (unless it leads to
    /// an LCP license).
    public static func isSupported(_ link: OPDSLink) -> Bool {
        !link.acquisitionTypes.contains(CatalogFormat.adobe)
            && (isLCP(link) || !(link.type ?? "").hasPrefix("text/html"))
    }

    /// A safe file name: the title's letters and digits, and an extension from the type or href.
    public static func fileName(title: String, href: String, type: String?) -> String {
        // `Haruko (manga)` gives `Haruko_manga`, not `Haruko__manga_`: a run of anything but
        // letters, digits and `-` is one `_`, and none starts or ends the name (nor a `-`, an option).
        var base = ""
        for character in title where base.count < 80 {
            if character.isLetter || character.isNumber || character == "-" {
                base.append(character)
            } else if !base.isEmpty, !base.hasSuffix("_") {
                base.append("_")
            }
        }
        base = String(base.drop { $0 == "-" || $0 == "_" })
        while base.hasSuffix("_") { base.removeLast() }
        if base.isEmpty { base = "publication" }
        let ext: String = switch type?.split(separator: ";").first.map(String.init) {
        case "application/epub+zip": "epub"
        case "application/pdf": "pdf"
        case "application/audiobook+zip": "audiobook"
        case "application/vnd.comicbook+zip", "application/x-cbz": "cbz"
        default: Href.path(of: href).flatMap { path in
            path.split(separator: "/").last?.split(separator: ".").dropFirst().last.map(String.init)
        }.map { String($0.prefix(10).filter { $0.isLetter || $0.isNumber }) } ?? "epub"
        }
        return base + "." + (ext.isEmpty ? "epub" : ext)
    }
}
