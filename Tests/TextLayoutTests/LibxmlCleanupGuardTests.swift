import Foundation
import Shared
import Streamer
import Testing
import TextLayout
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// libmobi calls libxml2's `xmlCleanupParser()` after each book, which tore libxml2 down under
/// the other threads parsing with it: `lectern import` of a folder with two Kindle books
/// crashed in one run of two to five while the library indexer converted them side by side.
/// The program carries its own `xmlCleanupParser`, which does nothing (xml_cleanup_guard.c).
@Suite struct LibxmlCleanupGuardTests {
    /// The `xmlCleanupParser` every library of the process calls is the program's, not
    /// libxml2's.
    @Test func xmlCleanupParserIsTheProgramsOwn() throws {
        let bound = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "xmlCleanupParser"), "no xmlCleanupParser at all")
        let libxml2 = try #require(dlopen("libxml2.so.2", RTLD_NOW | RTLD_NOLOAD), "libxml2 is not loaded")
        defer { dlclose(libxml2) }
        let libxml2s = try #require(dlsym(libxml2, "xmlCleanupParser"))
        #expect(bound != libxml2s, "the process calls libxml2's own xmlCleanupParser")
    }

    /// Kindle books opened on one thread while another parses XHTML in a legacy encoding (what
    /// the crash needed: libxml2's encoding handlers freed under the parser): both go on.
    @Test func kindleBooksOpenWhileAnotherThreadParses() async throws {
        let mobi = Fixtures.path("libmobi-samples/sample-cp1252.mobi"), azw3 = Fixtures.path("libmobi-samples/sample-kf8.azw3")
        let html = Array(("<?xml version=\"1.0\" encoding=\"windows-1252\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><body>"
            + String(repeating: "<p>caf\u{E9} cr\u{E8}me br\u{FB}l\u{E9}e</p>", count: 2_000) + "</body></html>").unicodeScalars.map { UInt8($0.value) })
        let parsed = Task.detached {
            var count = 0
            for _ in 0..<30 {
                count += try ContentDocumentParser.parse(html: html, href: "c.xhtml").blocks.count
            }
            return count
        }
        for _ in 0..<10 {
            for path in [mobi, azw3] {
                let asset = try AssetRetriever().retrieve(path: path)
                let publication = try await PublicationOpener(parsers: [MOBIParser()]).open(asset: asset, allowUserInteraction: false)
                #expect(!publication.readingOrder.isEmpty)
                publication.close()
            }
        }
        #expect(try await parsed.value == 30 * 2_000)
    }
}
