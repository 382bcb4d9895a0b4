import Foundation
import Shared
@testable import Streamer
import TestSupport

/// What parsing an EPUB gave: the builder and the warnings.
struct ParsedEPUB {
    let builder: PublicationBuilder
    let warnings: [Warning]

    var manifest: Manifest { builder.manifest }
    var metadata: Metadata { builder.manifest.metadata }

    /// Whether some warning's message contains `text`.
    func warned(_ text: String) -> Bool {
        warnings.contains { $0.message.contains(text) }
    }

    /// Reads a resource through the publication's fetcher (deobfuscation included), with the
    /// manifest link when there is one.
    func read(_ href: String, range: Range<UInt64>? = nil) throws -> Data {
        let link = manifest.link(withHREF: href) ?? Link(href: href)
        return try builder.fetcher.get(link).read(range: range).get()
    }
}

enum EPUBTestSupport {
    /// Parses a sample of `Tests/Fixtures/Samples`, e.g. `epub/idpf-wasteland.epub`.
    static func parseSample(_ relativePath: String) throws -> ParsedEPUB {
        try parse(path: Fixtures.sample(relativePath))
    }

    /// Parses the EPUB at `path`, reading it with an ``ArchiveFetcher`` (optionally wrapped).
    static func parse(path: String, wrap: (any Fetcher) -> any Fetcher = { $0 }) throws -> ParsedEPUB {
        let archive = try ArchiveFetcher(path: path)
        let fetcher = wrap(archive)
        let asset = Asset(name: (path as NSString).lastPathComponent, location: path, format: Format(kind: .epub),
                          fetcher: archive)
        let logger = ListWarningLogger()
        guard let builder = try EPUBParser().parse(asset: asset, fetcher: fetcher, warnings: logger) else {
            throw TestFailure("the EPUB parser did not claim \(path)")
        }
        // The navigation is read on first use; read it now, as the opener does, for its warnings.
        _ = builder.manifest.tableOfContents
        return ParsedEPUB(builder: builder, warnings: logger.warnings)
    }

    /// Writes an EPUB made of `entries` (after `mimetype` and a container pointing to
    /// `opfPath`) and parses it.
    static func parse(opf: String, opfPath: String = "OPS/package.opf", entries: [ZipBuilder.Entry] = [],
                      wrap: (any Fetcher) -> any Fetcher = { $0 }) throws -> ParsedEPUB {
        let path = try write(opf: opf, opfPath: opfPath, entries: entries)
        return try parse(path: path, wrap: wrap)
    }

    /// Writes an EPUB made of `entries` after `mimetype` and a container pointing to `opfPath`.
    static func write(opf: String?, opfPath: String = "OPS/package.opf", entries: [ZipBuilder.Entry] = []) throws -> String {
        var all = [ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                   ZipBuilder.Entry("META-INF/container.xml", container(opfPath))]
        if let opf { all.append(ZipBuilder.Entry(opfPath, opf)) }
        all += entries
        let path = Fixtures.temporaryDirectory("epub-test") + "/book.epub"
        try ZipBuilder.write(all, to: path)
        return path
    }

    static func container(_ opfPath: String) -> String {
        """
        <?xml version="1.0"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles><rootfile full-path="\(opfPath)" media-type="application/oebps-package+xml"/></rootfiles>
        </container>
        """
    }

    /// A minimal EPUB 3 package document around `metadata`, `manifest` and `spine` contents.
    static func opf(metadata: String = "<dc:title>T</dc:title><dc:identifier id=\"id\">urn:x</dc:identifier>",
                    manifest: String = "<item id=\"c1\" href=\"c1.xhtml\" media-type=\"application/xhtml+xml\"/>",
                    spine: String = "<itemref idref=\"c1\"/>", spineAttributes: String = "",
                    packageAttributes: String = "version=\"3.0\" unique-identifier=\"id\"") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" \(packageAttributes)>
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">\(metadata)</metadata>
          <manifest>\(manifest)</manifest>
          <spine \(spineAttributes)>\(spine)</spine>
        </package>
        """
    }

    static let xhtml = """
    <?xml version="1.0" encoding="UTF-8"?>
    <html xmlns="http://www.w3.org/1999/xhtml"><head><title>c</title></head><body><p>text</p></body></html>
    """
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fetcher that records every href it is asked for.
final class RecordingFetcher: Fetcher, @unchecked Sendable {
    let fetcher: any Fetcher
    private let lock = NSLock()
    private var requested: [String] = []

    init(_ fetcher: any Fetcher) {
        self.fetcher = fetcher
    }

    var requestedHrefs: [String] { lock.withLock { requested } }
    var links: [Link] { fetcher.links }

    func get(_ link: Link, parameters: [String: String]) -> any Resource {
        lock.withLock { requested.append(link.href) }
        return fetcher.get(link, parameters: parameters)
    }

    func close() { fetcher.close() }
}

/// A fetcher that cannot list its content (like an HTTP server), so the parser keeps manifest
/// items it cannot see: used by tests about the manifest's structure rather than its files.
final class UnlistedFetcher: Fetcher {
    let fetcher: any Fetcher
    init(_ fetcher: any Fetcher) { self.fetcher = fetcher }
    var links: [Link] { [] }
    func get(_ link: Link, parameters: [String: String]) -> any Resource { fetcher.get(link, parameters: parameters) }
    func close() { fetcher.close() }
}
