import FoundationEssentials
import Shared
import Streamer

/// One document of an EPUB — `container.xml`, the package document, the navigation document,
/// the NCX or `encryption.xml` — in an otherwise sound book (``EPUBSkeleton``), parsed by
/// ``EPUBParser`` as `lectern` parses a book, then read: manifest, navigation, resources
/// (deobfuscated when `encryption.xml` says so).
public enum EPUBInput {
    /// Which document the input is.
    public enum Document: Sendable {
        case container, package, navigation, ncx, encryption

        var path: String {
            switch self {
            case .container: EPUBSkeleton.containerPath
            case .package: EPUBSkeleton.packagePath
            case .navigation: EPUBSkeleton.navigationPath
            case .ncx: EPUBSkeleton.ncxPath
            case .encryption: EPUBSkeleton.encryptionPath
            }
        }
    }

    public static func consume(_ bytes: [UInt8], as document: Document) {
        let files = EPUBSkeleton.files(epub2: document == .ncx, replacing: document.path, with: Data(bytes))
        let fetcher = MemoryFetcher(files)
        let asset = Asset(name: "fuzz.epub", location: "fuzz.epub", format: Format(kind: .epub), fetcher: fetcher)
        let warnings = ListWarningLogger()
        let builder: PublicationBuilder?
        do {
            builder = try EPUBParser().parse(asset: asset, fetcher: fetcher, warnings: warnings)
        } catch {
            _ = error.userMessage
            return
        }
        for warning in warnings.warnings { _ = warning.description }
        guard let builder else { return }
        PublicationProbe.probe(builder.build())
    }
}
