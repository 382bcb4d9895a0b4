import Foundation
import Shared
import Testing
import TestSupport

/// The rules on bytes (magic numbers, JSON keys, XML roots, HTML) and on hints alone.
@Suite struct ContentSniffingTests {
    let sniffer = FormatSniffer()

    func sniff(_ text: String, hints: FormatHints = FormatHints()) -> Format? {
        sniffer.sniff(bytes: Array(text.utf8), hints: hints)
    }

    // MARK: - Hints

    @Test func hintsIgnoreExtensionCase() {
        #expect(sniffer.sniff(hints: FormatHints(fileExtension: "EPUB"))?.kind == .epub)
        #expect(sniffer.sniff(hints: FormatHints(path: "/tmp/Book.LcPdF"))?.kind == .lcpdf)
    }

    @Test func hintsIgnoreMediaTypeCaseAndExtraParameters() {
        #expect(sniffer.sniff(hints: FormatHints(fileExtension: nil, mediaType: MediaType("APPLICATION/EPUB+ZIP")))?.kind == .epub)
        #expect(sniffer.sniff(hints: FormatHints(fileExtension: nil, mediaType: MediaType("application/epub+zip;param=value")))?.kind == .epub)
    }

    @Test func opdsMediaTypes() {
        func kind(_ type: String) -> Format.Kind? {
            sniffer.sniff(hints: FormatHints(fileExtension: nil, mediaType: MediaType(type)))?.kind
        }
        #expect(kind("application/atom+xml;profile=opds-catalog") == .opds1Feed)
        #expect(kind("application/atom+xml;type=entry;profile=opds-catalog") == .opds1Entry)
        #expect(kind("application/atom+xml") == .xml)
        #expect(kind("application/opds+json") == .opds2Feed)
        #expect(kind("application/opds-publication+json") == .opds2Publication)
        #expect(kind("application/vnd.opds.authentication.v1.0+json") == .opdsAuthentication)
    }

    @Test func lcpHintsAreLCP() {
        #expect(sniffer.sniff(hints: FormatHints(fileExtension: "lcpa"))?.isLCPProtected == true)
        #expect(sniffer.sniff(hints: FormatHints(fileExtension: "epub"))?.isLCPProtected == false)
    }

    @Test func unknownHintsNameNothing() {
        #expect(sniffer.sniff(hints: FormatHints(fileExtension: "unknown")) == nil)
        #expect(sniffer.sniff(hints: FormatHints(fileExtension: nil, mediaType: MediaType("application/unknown+zip"))) == nil)
    }

    @Test func urlExtensionIgnoresQueryAndFragment() {
        #expect(FormatHints(path: "https://example.com/a/book.epub?token=1.2#x").fileExtensions == ["epub"])
        #expect(FormatHints(path: "https://example.com/a.b/book").fileExtensions.isEmpty)
    }

    // MARK: - Magic numbers

    @Test func pdfMagic() {
        #expect(sniff("%PDF-1.7\n%binary")?.kind == .pdf)
        #expect(sniff("%PDX-1.7") == nil)
    }

    @Test func zipMagicWithoutEntriesUsesTheHints() {
        let bytes: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 0, 0, 0, 0]
        #expect(sniffer.sniff(bytes: bytes)?.kind == .zip)
        #expect(sniffer.sniff(bytes: bytes, hints: FormatHints(fileExtension: "epub"))?.kind == .epub)
        // A hint that is no ZIP format does not apply to a ZIP.
        #expect(sniffer.sniff(bytes: bytes, hints: FormatHints(fileExtension: "pdf"))?.kind == .zip)
        #expect(sniffer.sniff(bytes: [0x50, 0x4B, 0x07, 0x08])?.kind == .zip)
    }

    @Test func contentBeatsALyingHint() {
        #expect(sniff("%PDF-1.4", hints: FormatHints(fileExtension: "epub"))?.kind == .pdf)
        #expect(sniff("just some words", hints: FormatHints(fileExtension: "epub")) == nil)
    }

    // MARK: - JSON

    @Test func licenseNeedsAllFourKeys() {
        #expect(sniff(SniffingSamples.license)?.kind == .lcpl)
        #expect(sniff("{\"id\": \"x\", \"issued\": \"2020\", \"encryption\": {}}")?.kind == .json)
    }

    @Test func manifestFamilies() {
        let audiobookProfile = "\"conformsTo\": \"https://readium.org/webpub-manifest/profiles/audiobook\""
        let divinaProfile = "\"conformsTo\": [\"https://readium.org/webpub-manifest/profiles/divina\"]"
        #expect(sniff(SniffingSamples.manifest(readingOrder: SniffingSamples.htmlReadingOrder))?.kind == .webpubManifest)
        #expect(sniff(SniffingSamples.manifest(readingOrder: SniffingSamples.audioReadingOrder))?.kind == .audiobookManifest)
        #expect(sniff(SniffingSamples.manifest(readingOrder: SniffingSamples.imageReadingOrder))?.kind == .divinaManifest)
        #expect(sniff(SniffingSamples.manifest(readingOrder: "[]", metadata: audiobookProfile))?.kind == .audiobookManifest)
        #expect(sniff(SniffingSamples.manifest(readingOrder: "[]", metadata: divinaProfile))?.kind == .divinaManifest)
        #expect(sniff(SniffingSamples.manifest(readingOrder: "[]", metadata: "\"@type\": \"https://schema.org/Audiobook\""))?.kind
            == .audiobookManifest)
        let selfDivina = "[{\"rel\": \"self\", \"href\": \"m.json\", \"type\": \"application/divina+json\"}]"
        #expect(sniff(SniffingSamples.manifest(readingOrder: "[]", links: selfDivina))?.kind == .divinaManifest)
    }

    @Test func manifestWithLCPEncryptedLinksIsLCP() {
        let readingOrder = """
            [{"href": "t.mp3", "type": "audio/mpeg",
              "alternates": [{"href": "t.ogg", "properties": {"encrypted": {"scheme": "http://readium.org/2014/01/lcp"}}}]}]
            """
        let format = sniff(SniffingSamples.manifest(readingOrder: readingOrder))
        #expect(format?.kind == .audiobookManifest)
        #expect(format?.isLCPProtected == true)
        // The Feedbooks access restriction is no LCP.
        let feedbooks = "[{\"href\": \"t.mp3\", \"properties\": {\"encrypted\": {\"scheme\": \"http://www.feedbooks.com/audiobooks/access-restriction\"}}}]"
        #expect(sniff(SniffingSamples.manifest(readingOrder: feedbooks))?.isLCPProtected == false)
    }

    @Test func opdsPublicationIsNotAManifest() {
        let publication = """
            {"metadata": {"title": "T"}, "links": [{"rel": "http://opds-spec.org/acquisition/open-access", "href": "b.epub"}]}
            """
        #expect(sniff(publication)?.kind == .opds2Publication)
        #expect(sniff("{\"metadata\": {\"title\": \"T\"}, \"links\": []}")?.kind == .json)
    }

    @Test func opdsFeeds() {
        #expect(sniff("{\"metadata\": {\"title\": \"T\"}, \"navigation\": []}")?.kind == .opds2Feed)
        #expect(sniff("{\"metadata\": {\"title\": \"T\"}, \"catalogs\": []}")?.kind == .opds2Feed)
        #expect(sniff("{\"navigation\": []}")?.kind == .json)
    }

    @Test func opdsAuthenticationNeedsIdAndTitle() {
        #expect(sniff("{\"id\": \"a\", \"title\": \"L\", \"authentication\": []}")?.kind == .opdsAuthentication)
        #expect(sniff("{\"id\": \"a\", \"authentication\": []}")?.kind == .json)
    }

    @Test func w3cPublicationManifest() {
        let manifest = "{\"@context\": [\"https://schema.org\", \"https://www.w3.org/ns/pub-context\"], \"readingOrder\": []}"
        #expect(sniff(manifest)?.kind == .w3cWPUBManifest)
    }

    @Test func trailingCommasAreForgiven() {
        #expect(sniff("{\"id\": \"a\", \"title\": \"L\", \"authentication\": [{\"type\": \"basic\",},],}")?.kind == .opdsAuthentication)
        // Commas inside strings are left alone.
        #expect(sniff("{\"message\": \",]\"}")?.kind == .json)
    }

    @Test func topLevelArrayIsPlainJSON() {
        #expect(sniff("[1, 2, 3]")?.kind == .json)
    }

    @Test func invalidJSONIsUnknown() {
        #expect(sniff("{\"unterminated\": ") == nil)
        #expect(sniff("{oops}") == nil)
    }

    // MARK: - Markup

    @Test(arguments: ["<!DOCTYPE html><p>x", "<!doctype HTML >\n<p>x", "\u{FEFF}  \n<!DocType html><title>t</title>",
                      "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\">\n<html><body><p>unclosed",
                      "<html><body><p>tag soup<br></body>"])
    func html(_ document: String) {
        #expect(sniff(document)?.kind == .html)
    }

    @Test func xhtmlByNamespace() {
        let xhtml = "<?xml version=\"1.0\"?><html xmlns=\"http://www.w3.org/1999/xhtml\"><head/><body/></html>"
        #expect(sniff(xhtml)?.kind == .xhtml)
        #expect(sniff("<html><head/><body/></html>")?.kind == .html)
    }

    @Test func atomFeedWithoutOPDSLinksIsXML() {
        let atom = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><link rel=\"self\" href=\"/f\" type=\"application/atom+xml\"/></feed>"
        #expect(sniff(atom)?.kind == .xml)
        let opds = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><link rel=\"http://opds-spec.org/acquisition\" href=\"/b\"/></entry></feed>"
        #expect(sniff(opds)?.kind == .opds1Feed)
    }

    @Test func feedOutsideTheAtomNamespaceIsXML() {
        #expect(sniff("<feed><link rel=\"http://opds-spec.org/acquisition\"/></feed>")?.kind == .xml)
    }

    @Test func otherXML() {
        #expect(sniff("<?xml version=\"1.0\"?>\n<package xmlns=\"http://www.idpf.org/2007/opf\"/>")?.kind == .xml)
    }

    @Test func plainTextStartingWithALessThanSignIsUnknown() {
        #expect(sniff("< not markup at all") == nil)
    }
}
