import Foundation
import Shared
@testable import Streamer
import Testing
import TestSupport

/// #28: when the navigation document gave the table of contents, the NCX is read only for its
/// page list: streamed, with the `navMap` of every chapter never made into a tree (the bench's
/// 297 KB NCX was parsed whole after the first page just to find no page list).
@Suite struct NCXPageListStreamingTests {
    static let ncx = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE ncx [<!ENTITY roman "xii">]>
    <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
      <head/><docTitle><text>T</text></docTitle>
      <navMap>
        <navPoint id="n1"><navLabel><text>One</text></navLabel><content src="c1.xhtml"/>
          <navPoint id="n2"><navLabel><text>Two</text></navLabel><content src="c1.xhtml#two"/></navPoint>
        </navPoint>
      </navMap>
      <pageList>
        <pageTarget type="front" value="12"><navLabel><text> page  &roman; </text></navLabel><content src="c1.xhtml#p12"/></pageTarget>
        <pageTarget type="normal" value="1"><navLabel><text>1</text></navLabel><content src="c2.xhtml#p1"/></pageTarget>
        <pageTarget type="normal" value="2"><navLabel><text>2</text></navLabel></pageTarget>
      </pageList>
      <pageList><pageTarget><navLabel><text>second list</text></navLabel><content src="x.xhtml"/></pageTarget></pageList>
    </ncx>
    """

    @Test func thePageListAloneIsTheWholeParsersPageList() throws {
        let whole = NCXParser(data: Data(Self.ncx.utf8), href: "OPS/toc.ncx", warnings: nil)
        let alone = NCXParser(data: Data(Self.ncx.utf8), href: "OPS/toc.ncx", warnings: nil, onlyPageList: true)
        #expect(whole.tableOfContents.map(\.title) == ["One"])
        #expect(alone.tableOfContents.isEmpty, "the navMap was read into a tree")
        #expect(alone.pageList == whole.pageList)
        #expect(alone.pageList.map(\.href) == ["OPS/c1.xhtml#p12", "OPS/c2.xhtml#p1"])
    }

    @Test func everySampleNCXGivesTheSamePageList() throws {
        let folder = Fixtures.sample("epub")
        var checked = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name.hasSuffix(".epub") {
            let fetcher = try ArchiveFetcher(path: folder + "/" + name)
            defer { fetcher.close() }
            for link in fetcher.links where link.href.lowercased().hasSuffix(".ncx") {
                let data = try fetcher.get(link).read().get()
                let whole = NCXParser(data: data, href: link.href, warnings: nil)
                let alone = NCXParser(data: data, href: link.href, warnings: nil, onlyPageList: true)
                #expect(alone.pageList == whole.pageList, "\(name)")
                checked += 1
            }
        }
        #expect(checked >= 5)
    }

    /// Not well-formed: the tree parser reads it, repairing it, as before.
    @Test func aMalformedNCXGoesToTheTreeParser() {
        let broken = Self.ncx.replacingOccurrences(of: "<head/>", with: "<head>")
        let whole = NCXParser(data: Data(broken.utf8), href: "OPS/toc.ncx", warnings: nil)
        let alone = NCXParser(data: Data(broken.utf8), href: "OPS/toc.ncx", warnings: nil, onlyPageList: true)
        #expect(alone.pageList == whole.pageList)
        #expect(alone.tableOfContents == whole.tableOfContents)
    }
}
