import FoundationEssentials
import LibXML
import Shared

/// Parses EPUB 2 and 3 publications (OCF container, OPF package, EPUB 3 navigation document
/// or NCX, `encryption.xml`) into a publication builder whose fetcher undoes font
/// obfuscation.
///
/// Everything is read through the fetcher it is given, which a content protection may have
/// wrapped with a decryptor; the deobfuscation it installs therefore runs after decryption.
/// What deviates from the specifications without making the book unusable is reported to the
/// warning logger, not thrown.
public struct EPUBParser: PublicationParser {
    public init() {}

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        guard asset.format.kind == .epub else { return nil }

        try EPUBPackageChecks.checkCompression(of: asset)
        EPUBPackageChecks.checkMimetype(in: fetcher, warnings: warnings)
        let packagePath = try EPUBContainerParser.packagePath(in: fetcher, warnings: warnings)
        let packageHref = EPUBHref.of(path: packagePath)
        let encryptions = readEncryption(fetcher, warnings: warnings).encryptions
        // The document's bytes go once the package is read, before the reading order is built.
        let read: (package: OPFPackage, metadata: Metadata, coverID: String?, overlayDurations: [String: Double])
        switch fetcher.readXMLDocumentData(Link(href: packageHref, mediaType: .opf)) {
        case .success(let data):
            read = try Self.readPackage(data, href: packageHref, fallbackTitle: Self.fallbackTitle(asset.name),
                                        displayOptions: { readDisplayOptions(fetcher) }, warnings: warnings)
        case .failure(.notFound):
            guard let recovered = EPUBPackageRecovery.manifest(
                fetcher: fetcher, packagePath: packagePath, encryptions: encryptions,
                title: Self.fallbackTitle(asset.name), warnings: warnings)
            else {
                throw .missingResource(href: packagePath, what: "the package document named by \(EPUBContainerParser.containerPath)")
            }
            return PublicationBuilder(manifest: recovered, fetcher: fetcher, format: asset.format)
        case .failure(let error):
            throw .unreadableResource(href: packagePath, error)
        }

        let (package, metadata, coverID, overlayDurations) = read
        let (readingOrder, declaredResources) = try EPUBManifestBuilder(
            package: package, coverID: coverID, encryptions: encryptions,
            warnings: warnings, overlayDurations: overlayDurations
        ).build()
        let resources = checkResourcesExist(readingOrder: readingOrder, resources: declaredResources,
                                            fetcher: fetcher, warnings: warnings)

        // Read when first asked for: a reader paints the first page without it.
        let spineTOCHref = package.spineTOC.flatMap { id in package.items.first { $0.id == id }?.href }
        let guide = package.guide
        let navigation = DeferredNavigation { [fetcher] in
            EPUBNavigation(spineTOCHref: spineTOCHref, guide: guide, readingOrder: readingOrder, resources: resources,
                           fetcher: fetcher, warnings: warnings).collections
        }
        let manifest = Manifest(metadata: metadata, readingOrder: readingOrder, resources: resources, navigation: navigation)
        // Most books obfuscate no font: their resources are then read as they are.
        guard EPUBDeobfuscator.obfuscates(encryptions) else {
            return PublicationBuilder(manifest: manifest, fetcher: fetcher, format: asset.format)
        }
        let deobfuscator = EPUBDeobfuscator(identifier: metadata.identifier ?? "", encryptions: encryptions)
        return PublicationBuilder(manifest: manifest,
                                  fetcher: TransformingFetcher(fetcher, transformer: deobfuscator.transformer),
                                  format: asset.format)
    }

    /// Parses the package document and its metadata, and returns the package without its XML
    /// tree: the tree is freed when this returns, before the reading order is built (#28: a
    /// 2,014-item package's tree is 2.7 MB, and was alive until the parse ended).
    static func readPackage(_ data: Data, href: String, fallbackTitle: String, displayOptions: () -> XMLDocument?,
                            warnings: (any WarningLogger)?) throws(PublicationParseError)
        -> (package: OPFPackage, metadata: Metadata, coverID: String?, overlayDurations: [String: Double]) {
        let package = try OPFPackage(data: data, href: href, warnings: warnings)
        checkVersion(package, warnings: warnings)
        let metadataParser = EPUBMetadataParser(package: package, warnings: warnings)
        let metadata = metadataParser.parse(fallbackTitle: fallbackTitle, displayOptions: displayOptions())
        return (package.releasingDocument(), metadata, metadataParser.entries.legacy["cover"],
                metadataParser.mediaOverlayDurations())
    }

    /// The file name without its extension, for a book without a title.
    static func fallbackTitle(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// `META-INF/encryption.xml`, when present and readable; a damaged one is reported and
    /// ignored (the protections decide what an unreadable DRM means).
    private func readEncryption(_ fetcher: any Fetcher, warnings: (any WarningLogger)?) -> EPUBEncryptionDocument {
        let path = EPUBEncryptionParser.path
        switch fetcher.readXMLDocumentData(Link(href: EPUBHref.of(path: path), mediaType: .xml)) {
        case .success(let data):
            do {
                return try EPUBEncryptionParser.parseDocument(data)
            } catch {
                warnings?.log(Warning(error.userMessage, severity: .major, href: path))
                return EPUBEncryptionDocument()
            }
        case .failure(.notFound):
            return EPUBEncryptionDocument()
        case .failure(let error):
            warnings?.log(Warning("cannot be read: \(error)", severity: .major, href: path))
            return EPUBEncryptionDocument()
        }
    }

    /// Apple's display options, an EPUB 2 source of fixed-layout hints.
    private func readDisplayOptions(_ fetcher: any Fetcher) -> XMLDocument? {
        for path in ["META-INF/com.apple.ibooks.display-options.xml", "META-INF/com.kobobooks.display-options.xml"] {
            if case .success(let data) = fetcher.readXMLDocumentData(Link(href: EPUBHref.of(path: path))),
               let document = try? XMLDocument(xml: data) {
                return document
            }
        }
        return nil
    }

    private static func checkVersion(_ package: OPFPackage, warnings: (any WarningLogger)?) {
        // EPUB 3.3 asks reading systems to try to open other versions (w3c pkg-version-backward).
        if let major = package.majorVersion, major == 2 || major == 3 { return }
        warnings?.log(Warning("package version \"\(package.version ?? "none")\" is neither EPUB 2 nor 3; read as EPUB 3",
                              severity: .moderate, href: Href.path(of: package.href)))
    }

    /// Warns about manifest items the package does not hold (a missing media-overlay audio
    /// file is common) and returns the resources without them: a reader tolerates the gap, and
    /// a missing spine item stays in the reading order, where reading it reports the damage.
    /// Fetchers that cannot list their content are not checked.
    private func checkResourcesExist(readingOrder: [Link], resources: [Link], fetcher: any Fetcher,
                                     warnings: (any WarningLogger)?) -> [Link] {
        let isListed: (String) -> Bool
        if let archiveFetcher = fetcher as? ArchiveFetcher {
            // The archive's directory answers without a link for each of its entries (#28).
            guard archiveFetcher.archive.entries.contains(where: { !$0.isDirectory }) else { return resources }
            isListed = { archiveFetcher.archive.entry(at: $0).map { !$0.isDirectory } ?? false }
        } else {
            let available = Set(fetcher.links.compactMap(\.path))
            guard !available.isEmpty else { return resources }
            isListed = available.contains
        }
        func isMissing(_ link: Link) -> Bool { link.path.map { !isListed($0) } ?? false }
        for link in readingOrder where isMissing(link) {
            warnings?.log(Warning("declared in the spine but missing from the package", severity: .major,
                                 href: Href.removingFragment(link.href)))
        }
        for link in resources where isMissing(link) {
            warnings?.log(Warning("declared in the manifest but missing from the package; left out", severity: .moderate,
                                 href: Href.removingFragment(link.href)))
        }
        return resources.filter { !isMissing($0) }
    }
}
