import Dispatch

/// One kind of untrusted input Lectern reads, and the function that feeds it bytes.
///
/// Each case is one libFuzzer target (`Fuzz/`, executable `fuzz-<rawValue>`) and one folder
/// of regression inputs (`Tests/Fixtures/fuzz/<rawValue>/`). A consume function drives the
/// parser through its public entry point as Lectern does, then uses what came out (reads
/// the resources, lays out the text, writes the JSON back…). It swallows only the typed
/// errors the parser promises for bad input; anything else — a trap, a sanitizer report,
/// a broken invariant (``HarnessInvariant``) — is a crash, which is what the fuzzer looks for.
///
/// Nothing here touches the network or the disk: remote requests get a fixed answer or an
/// error from ``OfflineHTTPClient``, and publications are served from memory.
public enum HostileInput: String, Sendable, CaseIterable {
    /// An LCP license document (`.lcpl`, `META-INF/license.lcpl`), its canonical form and
    /// the basic-profile checks (signature, certificate, key check).
    case lcpLicense = "lcp-license"
    /// A License Status Document, as LCP reads it (the parser on the bytes directly).
    case licenseStatus = "license-status"
    /// A License Status Document, as the signed-audiobook check reads it when an audiobook opens.
    case audiobookStatus = "audiobook-status"
    /// A signed (Feedbooks/DPLA) audiobook manifest, checked with a fixed key set.
    case audiobookManifest = "audiobook-manifest"
    /// An issuer's JSON Web Key Set, used to check a fixed signed manifest.
    case audiobookKeySet = "audiobook-jwks"
    /// `META-INF/container.xml` of an otherwise valid EPUB.
    case epubContainer = "epub-container"
    /// The OPF package document of an otherwise valid EPUB.
    case epubPackage = "epub-opf"
    /// The EPUB 3 navigation document.
    case epubNavigation = "epub-nav"
    /// The EPUB 2 NCX.
    case epubNCX = "epub-ncx"
    /// `META-INF/encryption.xml` (font obfuscation, LCP, ADEPT markers).
    case epubEncryption = "epub-encryption"
    /// A Readium Web Publication Manifest, packaged (`.webpub`) and on its own.
    case rwpmManifest = "rwpm-manifest"
    /// A ZIP archive: central directory, local headers, stored/deflated data, PKWARE and
    /// WinZip AES encryption, read without and with a password.
    case zipArchive = "zip-archive"
    /// An XHTML content document, converted to text and laid out.
    case xhtmlLayout = "xhtml-layout"
    /// The reader's `config.toml` and a theme file.
    case tomlConfig = "toml-config"
    /// The entry names of a comic book archive and its `ComicInfo.xml`.
    case comicBook = "cbz-comicinfo"
    /// A PDF opened through poppler with a password, then its metadata, outline and text.
    case pdfDocument = "pdf-poppler"
    /// An OPDS 1 catalog feed or entry (Atom).
    case opds1Feed = "opds1-feed"
    /// An OPDS 2 catalog feed or publication (JSON).
    case opds2Feed = "opds2-feed"
    /// An Authentication for OPDS document.
    case opdsAuthentication = "opds-authentication"
    /// An OpenSearch description document.
    case openSearch = "opensearch-description"
    /// An HTTP request head to `lectern serve`, through the server's own checks (`Host`, route,
    /// `Range`, conditional headers).
    case httpRequestHead = "http-request-head"
    /// A plain-text, Markdown, FB2 or HTML document opened on its own.
    case documents = "documents"
    /// A comic book in a RAR, 7z or tar archive, through libarchive.
    case comicArchive = "comic-archive"
    /// A Mobipocket or KF8 book, through libmobi.
    case mobi = "mobi"
    /// A DjVu document, through djvulibre: parsed, then its first pages' text and pictures.
    case djvu = "djvu"
    /// A file of annotations to import: Readium Annotation Set, Lectern's JSON, KOReader's
    /// `metadata.*.lua`.
    case annotations = "annotations"
    /// A Readium Annotation Set, read by its parser alone (no anchoring, no export).
    case annotationReadium = "annotation-readium"
    /// Lectern's JSON of annotations, read by its parser alone.
    case annotationLecternJSON = "annotation-lectern-json"
    /// KOReader's `metadata.*.lua`, read by the Lua table parser alone.
    case annotationKOReaderLua = "annotation-koreader-lua"

    /// Feeds `bytes` to the parser of this kind of input.
    public func consume(_ bytes: [UInt8]) async {
        if let synchronous { return synchronous(bytes) }
        switch self {
        case .audiobookStatus: await LicenseStatusInput.consumeAsAudiobookStatus(bytes)
        case .audiobookManifest: await SignedAudiobookInput.consumeManifest(bytes)
        case .audiobookKeySet: await SignedAudiobookInput.consumeKeySet(bytes)
        case .zipArchive: await ZipInput.consume(bytes)
        default: preconditionFailure("\(rawValue) has no consume function")
        }
    }

    /// Feeds `bytes` to the parser and waits, for the fuzzer's C callback. Never call it from
    /// a task: the asynchronous kinds block the calling thread until their task finishes.
    public func consumeBlocking(_ bytes: [UInt8]) {
        if let synchronous { return synchronous(bytes) }
        let done = DispatchSemaphore(value: 0)
        Task {
            await consume(bytes)
            done.signal()
        }
        done.wait()
    }

    /// The consume function of the kinds whose parsers are synchronous.
    private var synchronous: (([UInt8]) -> Void)? {
        switch self {
        case .lcpLicense: LCPLicenseInput.consume
        case .licenseStatus: LicenseStatusInput.consume
        case .epubContainer: { EPUBInput.consume($0, as: .container) }
        case .epubPackage: { EPUBInput.consume($0, as: .package) }
        case .epubNavigation: { EPUBInput.consume($0, as: .navigation) }
        case .epubNCX: { EPUBInput.consume($0, as: .ncx) }
        case .epubEncryption: { EPUBInput.consume($0, as: .encryption) }
        case .rwpmManifest: RWPMInput.consume
        case .xhtmlLayout: XHTMLLayoutInput.consume
        case .tomlConfig: TOMLConfigInput.consume
        case .comicBook: ComicBookInput.consume
        case .pdfDocument: PDFInput.consume
        case .opds1Feed: OPDSInput.consumeOPDS1
        case .opds2Feed: OPDSInput.consumeOPDS2
        case .opdsAuthentication: OPDSInput.consumeAuthentication
        case .openSearch: OPDSInput.consumeOpenSearch
        case .httpRequestHead: HTTPRequestHeadInput.consume
        case .documents: DocumentInput.consume
        case .comicArchive: ArchiveAndKindleInput.consumeComicArchive
        case .mobi: ArchiveAndKindleInput.consumeMOBI
        case .djvu: DjVuInput.consume
        case .annotations: AnnotationsInput.consume
        case .annotationReadium: AnnotationParserInput.readium.consume
        case .annotationLecternJSON: AnnotationParserInput.lecternJSON.consume
        case .annotationKOReaderLua: AnnotationParserInput.koreaderLua.consume
        case .audiobookStatus, .audiobookManifest, .audiobookKeySet, .zipArchive: nil
        }
    }
}

/// A property every well-behaved parser keeps whatever its input; a broken one is a bug
/// (the fuzzer reports it as a crash, with the input that broke it).
enum HarnessInvariant {
    static func check(_ condition: Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
        if !condition { fatalError("invariant broken: \(message())", file: file, line: line) }
    }
}
