import Foundation
import LibXML
import Shared
@testable import Streamer
import Testing

/// #28: the package document's XML tree is released once the metadata is read, before the
/// reading order and resources are built (a 2,014-item package's tree is 2.7 MB, several times
/// the values read from it, and it was alive until the whole parse ended).
@Suite struct EPUBPackageTreeReleaseTests {
    static let opf = """
    <?xml version="1.0"?>
    <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
      <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
        <dc:identifier id="uid">urn:uuid:1</dc:identifier>
        <dc:title>Released Tree</dc:title>
        <dc:language>en</dc:language>
        <meta name="cover" content="img"/>
      </metadata>
      <manifest>
        <item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>
        <item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/>
        <item id="img" href="cover.jpg" media-type="image/jpeg"/>
      </manifest>
      <spine><itemref idref="c1"/><itemref idref="c2"/></spine>
    </package>
    """

    @Test func thePackageHandedToTheManifestBuildHoldsNoTree() throws {
        let parts = try EPUBParser.readPackage(Data(Self.opf.utf8), href: "OPS/content.opf", fallbackTitle: "file",
                                               displayOptions: { nil }, warnings: nil)
        #expect(parts.package.document == nil)
        #expect(parts.package.metadata == nil)
        // What was read from the tree is all there.
        #expect(parts.metadata.title == "Released Tree")
        #expect(parts.metadata.identifier == "urn:uuid:1")
        #expect(parts.coverID == "img")
        #expect(parts.package.items.map(\.href) == ["OPS/c1.xhtml", "OPS/c2.xhtml", "OPS/cover.jpg"])
        #expect(parts.package.itemrefs.map(\.idref) == ["c1", "c2"])
    }

    @Test func releasingFreesTheTreeOnceTheParsedPackageIsGone() throws {
        weak var tree: XMLDocument?
        var released: OPFPackage?
        do {
            let package = try OPFPackage(data: Data(Self.opf.utf8), href: "OPS/content.opf", warnings: nil)
            tree = package.document
            #expect(tree != nil)
            released = package.releasingDocument()
        }
        #expect(tree == nil, "the released package still keeps the package document's tree alive")
        #expect(released?.items.count == 3)
    }
}
