import FoundationEssentials

/// Names a ZIP archive or a folder from its entries: EPUB, Readium package (webpub,
/// audiobook, Divina, LCP PDF, LCP audiobook), W3C LPF, comic (CBZ), zipped audio book (ZAB),
/// else a plain ZIP; and finds the DRM it carries (LCP, Adobe ADEPT).
struct ContainerFormatSniffer {
    let limits: SniffingLimits
    let hints: FormatHints

    /// The format of `container`. A folder (`isFolder`) is only recognised as an exploded EPUB
    /// or Readium package; nil when it is neither. An archive is at least a ZIP.
    func format(of container: some SniffedContainer, isFolder: Bool = false) -> Format? {
        if let epub = epubFormat(of: container) { return epub }
        if let rpf = packageFormat(of: container) { return rpf }
        if isFolder { return container.contains("index.html") ? Format(kind: .html) : nil }
        if isLPF(container) { return Format(kind: .lpf) }
        let paths = container.entryPaths ?? []
        if Self.isZippedFB2(paths) { return Format(kind: .fb2Zip) }
        if let office = officeFormat(of: container) { return office }
        if let kind = ArchiveEntryNames(paths: paths).kind(hints: hints) { return Format(kind: kind) }
        return Format(kind: .zip)
    }

    // MARK: - EPUB

    static let epubMediaType = "application/epub+zip"
    static let containerPath = "META-INF/container.xml"

    /// EPUB when `mimetype`, trimmed of whitespace, is `application/epub+zip` — wherever it is
    /// in the archive, stored or deflated. When `mimetype` cannot be read (encrypted with a ZIP
    /// password) or is missing (a common packaging slip), `META-INF/container.xml` decides.
    func epubFormat(of container: some SniffedContainer) -> Format? {
        let isEPUB: Bool
        switch container.read("mimetype", maxLength: limits.maxMimetypeLength) {
        case .data(let data):
            isEPUB = String(decoding: data, as: UTF8.self).trimmed == Self.epubMediaType
        case .missing, .unreadable:
            isEPUB = container.contains(Self.containerPath) || container.contains("META-INF\\container.xml")
        case .tooLarge:
            isEPUB = false
        }
        guard isEPUB else { return nil }

        var isLCP = container.contains("META-INF/license.lcpl")
        var isAdept = container.contains("META-INF/rights.xml")
        if case .data(let xml) = container.read("META-INF/encryption.xml", maxLength: limits.maxDocumentLength) {
            let encryption = EncryptionXMLSniffer(xml)
            isLCP = isLCP || encryption.isLCP
            isAdept = isAdept || encryption.isAdept
        }
        return Format(kind: .epub, isLCPProtected: isLCP, isAdeptProtected: isAdept)
    }

    // MARK: - Readium packages

    /// A Readium package: a root `manifest.json` that is a Readium Web Publication Manifest.
    /// A `manifest.json` that cannot be read (ZIP password) still makes a package, named by
    /// the hints; one that is readable but no RWPM (a browser extension) does not.
    func packageFormat(of container: some SniffedContainer) -> Format? {
        let profile: ManifestProfile?
        switch container.read("manifest.json", maxLength: limits.maxDocumentLength) {
        case .missing:
            return nil
        case .data(let data):
            guard let object = LenientJSON.parse(data)?.object, ManifestProfile.isManifest(object) else { return nil }
            profile = ManifestProfile(object)
        case .tooLarge, .unreadable:
            profile = nil
        }
        let isLCP = container.contains("license.lcpl") || (profile?.hasLCPEncryptedLinks ?? false)

        var kind: Format.Kind
        switch profile?.family {
        case .audiobook: kind = isLCP ? .lcpa : .audiobook
        case .divina: kind = .divina
        case .pdf: kind = isLCP ? .lcpdf : .webpub
        case .webpub: kind = .webpub
        case nil:
            kind = [.lcpdf, .lcpa, .audiobook, .divina].first(where: hints.names) ?? .webpub
        }
        // The LCP extensions name the package when its manifest does not contradict them.
        let family = profile?.family
        let isInferred = !(profile?.isDeclared ?? false)
        if hints.names(.lcpdf), family == .pdf || (family == .webpub && isInferred) {
            kind = .lcpdf
        } else if hints.names(.lcpa), family == .audiobook || (family == .webpub && isInferred) {
            kind = .lcpa
        }
        return Format(kind: kind, isLCPProtected: isLCP || kind == .lcpdf || kind == .lcpa)
    }

    /// FB2.zip: one FictionBook document, alone in the archive (hidden files aside).
    static func isZippedFB2(_ paths: [String]) -> Bool {
        let entries = paths.filter { !ArchiveEntryNames.isIgnored($0) }
        return entries.count == 1 && FormatHints.fileExtension(of: entries[0]) == "fb2"
    }

    /// A word processor document: DOCX (`word/document.xml` beside `[Content_Types].xml`) or
    /// ODT (its `mimetype` entry says so, as an EPUB's does).
    func officeFormat(of container: some SniffedContainer) -> Format? {
        if container.contains("[Content_Types].xml") && container.contains("word/document.xml") { return Format(kind: .docx) }
        if case .data(let data) = container.read("mimetype", maxLength: limits.maxMimetypeLength),
           String(decoding: data, as: UTF8.self).trimmed == MediaType.odt.essence {
            return Format(kind: .odt)
        }
        return nil
    }

    // MARK: - W3C Lightweight Packaging Format

    /// LPF: a root `index.html`, or a root `publication.json` with the W3C publication
    /// context (assumed when it cannot be read).
    func isLPF(_ container: some SniffedContainer) -> Bool {
        if container.contains("index.html") { return true }
        switch container.read("publication.json", maxLength: limits.maxDocumentLength) {
        case .missing: return false
        case .data(let data):
            guard let json = LenientJSON.parse(data) else { return false }
            return JSONFormatSniffer.format(of: json).kind == .w3cWPUBManifest
        case .tooLarge, .unreadable: return true
        }
    }
}
