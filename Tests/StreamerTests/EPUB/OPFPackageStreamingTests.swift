import Foundation
import LibXML
import Shared
@testable import Streamer
import Testing
import TestSupport

/// #28: a well-formed package document is read element after element, without its tree
/// (2.7 MB for the bench's 2,014-item package, the peak of the opening): the package read so
/// must be the one the tree gives, and a document that is not well-formed still goes to the
/// tree parser, which repairs it.
@Suite struct OPFPackageStreamingTests {
    /// Every field, the metadata worked out from each and the warnings, equal.
    static func expectSame(_ data: Data, href: String, _ name: String) throws {
        let streamedWarnings = ListWarningLogger(), treeWarnings = ListWarningLogger()
        let streamed = try #require(OPFPackage.streamed(data: data, href: href, warnings: streamedWarnings),
                                    "\(name) was not streamed")
        let tree = try OPFPackage(tree: data, href: href, warnings: treeWarnings)
        #expect(streamed.items == tree.items, "\(name)")
        #expect(streamed.itemrefs == tree.itemrefs, "\(name)")
        #expect(streamed.guide == tree.guide, "\(name)")
        #expect(streamed.version == tree.version && streamed.uniqueIdentifierID == tree.uniqueIdentifierID, "\(name)")
        #expect(streamed.language == tree.language && streamed.vocabulary == tree.vocabulary, "\(name)")
        #expect(streamed.pageProgressionDirection == tree.pageProgressionDirection && streamed.spineTOC == tree.spineTOC,
                "\(name)")
        #expect(streamed.warningsFree(streamedWarnings) == tree.warningsFree(treeWarnings), "\(name)")
        let metadata = { (package: OPFPackage) in
            EPUBMetadataParser(package: package, warnings: nil).parse(fallbackTitle: "file")
        }
        #expect(metadata(streamed) == metadata(tree), "\(name)")
    }

    @Test func everySampleBookReadsAsFromItsTree() throws {
        let folder = Fixtures.sample("epub")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".epub") }.sorted()
        #expect(names.count >= 10)
        for name in names {
            let fetcher = try ArchiveFetcher(path: folder + "/" + name)
            defer { fetcher.close() }
            let path = try EPUBContainerParser.packagePath(in: fetcher, warnings: nil)
            let data = try fetcher.readXMLDocumentData(Link(href: EPUBHref.of(path: path))).get()
            try Self.expectSame(data, href: EPUBHref.of(path: path), name)
        }
    }

    /// What a streamed reading could get wrong: prefixed OPF elements, a second manifest,
    /// elements named `item` inside the metadata, the spine before the manifest, damaged items
    /// (warnings in the tree's order), `xml:lang` on the package, namespaces declared on the
    /// package and an internal entity in the metadata.
    @Test func awkwardPackageReadsAsFromItsTree() throws {
        let opf = """
        <?xml version="1.0"?>
        <!DOCTYPE opf:package [<!ENTITY house "Entity House">]>
        <opf:package xmlns:opf="http://www.idpf.org/2007/opf" xmlns:dc="http://purl.org/dc/elements/1.1/"
            version="3.0" unique-identifier="uid" xml:lang="fr" prefix="foaf: http://xmlns.com/foaf/spec/">
          <opf:spine toc="ncx" page-progression-direction="RTL"><opf:itemref idref="c2" linear="no"/>
            <opf:itemref/><opf:itemref idref="c1" properties="page-spread-left"/></opf:spine>
          <opf:metadata>
            <dc:identifier id="uid">urn:uuid:2</dc:identifier>
            <dc:title xml:lang="en">Awkward</dc:title><dc:publisher>&house;</dc:publisher>
            <item id="not-a-manifest-item" href="no.xhtml"/>
            <opf:meta property="dcterms:modified">2020-01-01T00:00:00Z</opf:meta>
          </opf:metadata>
          <opf:manifest>
            <opf:item id="c1" href="text/c1.xhtml#start" media-type="application/xhtml+xml" properties="nav scripted"/>
            <opf:item id="broken"/>
            <opf:item id="c2" href=" text/c%202.xhtml " media-type="application/xhtml+xml" fallback="c1"/>
            <opf:item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
          </opf:manifest>
          <opf:manifest><opf:item id="second" href="second.xhtml"/></opf:manifest>
          <opf:guide><opf:reference type="toc" href="text/c1.xhtml"/><opf:reference href=""/></opf:guide>
        </opf:package>
        """
        try Self.expectSame(Data(opf.utf8), href: "OEBPS/content.opf", "awkward package")
        let package = try #require(OPFPackage.streamed(data: Data(opf.utf8), href: "OEBPS/content.opf", warnings: nil))
        #expect(package.items.map(\.id) == ["c1", "c2", "ncx"])
        #expect(EPUBMetadataParser(package: package, warnings: nil).parse(fallbackTitle: "f").title == "Awkward")
        #expect(package.spineTOC == "ncx" && package.pageProgressionDirection == "rtl" && package.language == "fr")
    }

    /// The tree kept for the metadata holds the `package` start tag and the metadata, not the
    /// manifest and spine of every item.
    @Test func theKeptTreeHoldsOnlyTheMetadata() throws {
        let package = try OPFPackage(data: Data(EPUBPackageTreeReleaseTests.opf.utf8), href: "OPS/content.opf", warnings: nil)
        let root = try #require(package.document?.root)
        #expect(root.localName == "package")
        #expect(root.children.map(\.localName) == ["metadata"])
        #expect(package.items.count == 3 && package.itemrefs.count == 2)
    }

    /// Not well-formed (an unclosed element, a stray `&`): no streamed package; the tree
    /// parser recovers what it can, as before.
    @Test func aMalformedPackageGoesToTheTreeParser() throws {
        let opf = """
        <?xml version="1.0"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Fish & Chips</dc:title></metadata>
          <manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"></manifest>
          <spine><itemref idref="c1"/></spine>
        </package>
        """
        #expect(OPFPackage.streamed(data: Data(opf.utf8), href: "OPS/content.opf", warnings: nil) == nil)
        let package = try OPFPackage(data: Data(opf.utf8), href: "OPS/content.opf", warnings: nil)
        let tree = try OPFPackage(tree: Data(opf.utf8), href: "OPS/content.opf", warnings: nil)
        #expect(package.items == tree.items)
        #expect(package.items.first?.href == "OPS/c1.xhtml")
    }
}

extension OPFPackage {
    /// The warnings logged, as text (a `Warning` is not compared as a whole).
    fileprivate func warningsFree(_ logger: ListWarningLogger) -> [String] {
        logger.warnings.map { "\($0)" }
    }
}
