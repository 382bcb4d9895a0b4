import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// SMIL documents of EPUB 3 Media Overlays: the structure read, clock values in every form,
/// and hostile documents refused with a message that says why.
@Suite struct MediaOverlayParserTests {
    static let href = "OPS/smil/c1.smil"

    func parse(_ body: String, bodyAttributes: String = "") throws(MediaOverlayError) -> MediaOverlay {
        try MediaOverlayParser.parse(Data(MediaOverlayEPUB.smil(body, bodyAttributes: bodyAttributes).utf8), href: Self.href)
    }

    func message(_ body: String) -> String? {
        do {
            _ = try parse(body)
            return nil
        } catch {
            return error.userMessage
        }
    }

    @Test func seqAndParAreFlattenedWithTheirStructure() throws {
        let overlay = try parse("""
            <par><text src="../c1.xhtml#p1"/><audio src="../audio/c1.mp3" clipBegin="0:00:01.5" clipEnd="0:00:03"/></par>
            <seq epub:type="table" epub:textref="../c1.xhtml#t1">
              <seq epub:type="table-row">
                <par epub:type="table-cell"><text src="../c1.xhtml#cell%201"/><audio src="../audio/c1.mp3" clipBegin="3s" clipEnd="4s"/></par>
              </seq>
            </seq>
            <par><text src="../c1.xhtml#p2"/></par>
            <par><text src="../c2.xhtml"/><audio src="../audio/c2.mp3"/></par>
            """, bodyAttributes: #"epub:textref="../c1.xhtml" epub:type="bodymatter chapter""#)
        let phrases = overlay.phrases
        #expect(phrases.count == 4)
        #expect(phrases[0] == MediaOverlayPhrase(textHref: "OPS/c1.xhtml", fragment: "p1",
                                                 clip: MediaOverlayClip(href: "OPS/audio/c1.mp3", begin: 1.5, end: 3),
                                                 types: ["bodymatter", "chapter"]))
        #expect(phrases[1].types == ["bodymatter", "chapter", "table", "table-row", "table-cell"])
        #expect(phrases[1].fragment == "cell 1")
        #expect(phrases[2].isTextOnly)
        // Neither clipBegin nor clipEnd: from 0 to the end of the file.
        #expect(phrases[3].clip == MediaOverlayClip(href: "OPS/audio/c2.mp3", begin: 0, end: nil))
        #expect(phrases[3].fragment == nil)
        #expect(phrases[0].clip?.mediaFragment == "OPS/audio/c1.mp3#t=1.5,3")
        #expect(MediaOverlayStructures.phrase(phrases[1], isIn: MediaOverlayStructures.escapable))
        #expect(!MediaOverlayStructures.phrase(phrases[1], isIn: MediaOverlayStructures.skippable))
    }

    @Test(arguments: [
        ("0:00:01.5", 1.5), ("12:34:56", 45_296), ("100:00:00.25", 360_000.25), ("02:03.5", 123.5), ("00:00", 0),
        ("3.5", 3.5), ("3.5s", 3.5), ("200ms", 0.2), ("2min", 120), ("1.5h", 5400), (" 7 ", 7), ("0.025min", 1.5),
    ])
    func clockValues(_ text: String, _ seconds: Double) {
        #expect(MediaOverlayParser.clockValue(text).map { abs($0 - seconds) < 1e-9 } == true, "\(text)")
    }

    @Test(arguments: ["", "abc", "-1s", "1:60", "1:2:3", "0:00:60", "1e3", "0x10", "nan", "inf", "1.2.3", "12 s", "3m",
                      "1:00:00:00", ":30", "5.", "9999999999999999h", "00:01.5.5", String(repeating: "9", count: 400)])
    func badClockValuesAreRefused(_ text: String) {
        #expect(MediaOverlayParser.clockValue(text) == nil, "\(text)")
    }

    @Test func aBadClockValueNamesTheAttributeAndTheLine() throws {
        let text = try #require(message("""
            <par><text src="../c1.xhtml#p1"/><audio src="a.mp3" clipBegin="0"/></par>
            <par><text src="../c1.xhtml#p2"/><audio src="a.mp3" clipBegin="soon"/></par>
            """))
        #expect(text.contains("clipBegin \"soon\" is not a clock value"), "\(text)")
        #expect(text.contains("OPS/smil/c1.smil (line 5)"), "\(text)")
        let backwards = try #require(message(#"<par><text src="../c1.xhtml#p1"/><audio src="a.mp3" clipBegin="5" clipEnd="4"/></par>"#))
        #expect(backwards.contains("clipEnd (4 s) comes before clipBegin (5 s)"), "\(backwards)")
    }

    @Test(arguments: ["http://evil.example/a.mp3", "file:///etc/passwd", "data:audio/wav;base64,AAAA"])
    func audioOutsideThePublicationIsRefused(_ src: String) throws {
        let text = try #require(message(#"<par><text src="../c1.xhtml#p1"/><audio src="\#(src)"/></par>"#))
        #expect(text.contains("is outside the publication"), "\(text)")
    }

    @Test func textOutsideThePublicationIsRefused() throws {
        let text = try #require(message(#"<par><text src="https://evil.example/c1.xhtml#p1"/></par>"#))
        #expect(text.contains("is outside the publication"), "\(text)")
    }

    @Test func missingPartsAreNamed() throws {
        #expect(message("<par><audio src=\"a.mp3\"/></par>")?.contains("a <par> has no <text>") == true)
        #expect(message("<par><text/></par>")?.contains("a <text> has no src") == true)
        #expect(message(#"<par><text src="c.xhtml"/><audio clipBegin="1"/></par>"#)?.contains("an <audio> has no src") == true)
        let notSMIL = #"<?xml version="1.0"?><html><body/></html>"#
        #expect(throws: MediaOverlayError.invalid(href: Self.href, line: 1, reason: "the root element is <html>, not <smil>")) {
            try MediaOverlayParser.parse(Data(notSMIL.utf8), href: Self.href)
        }
        #expect(throws: MediaOverlayError.self) { try MediaOverlayParser.parse(Data("<smil><body><par>".utf8), href: Self.href) }
    }

    @Test func deepNestingIsRefused() throws {
        let depth = MediaOverlayParser.maxDepth + 1
        let body = String(repeating: "<seq>", count: depth) + #"<par><text src="c.xhtml#p"/></par>"# + String(repeating: "</seq>", count: depth)
        let text = try #require(message(body))
        #expect(text.contains("too large: <seq> nested deeper than 64 levels"), "\(text)")
        // Just within the limit is fine.
        let within = MediaOverlayParser.maxDepth - 1
        let allowed = String(repeating: "<seq>", count: within) + #"<par><text src="c.xhtml#p"/></par>"# + String(repeating: "</seq>", count: within)
        #expect(try parse(allowed).phrases.count == 1)
    }

    @Test func hugeDocumentsAreRefusedBeforeParsing() throws {
        let data = Data(count: MediaOverlayParser.maxSize + 1)
        #expect(throws: MediaOverlayError.tooLarge(href: Self.href, reason: "\(data.count) bytes, more than the \(MediaOverlayParser.maxSize) accepted")) {
            try MediaOverlayParser.parse(data, href: Self.href)
        }
    }

    @Test func tooManyPhrasesAreRefused() throws {
        let par = #"<par><text src="c.xhtml#p"/></par>"#
        let smil = Data(MediaOverlayEPUB.smil(String(repeating: par, count: 11)).utf8)
        #expect(throws: MediaOverlayError.tooLarge(href: Self.href, reason: "more than 10 <par> elements")) {
            try MediaOverlayParser.parse(smil, href: Self.href, phraseLimit: 10)
        }
        #expect(try MediaOverlayParser.parse(smil, href: Self.href, phraseLimit: 11).phrases.count == 11)
        #expect(MediaOverlayParser.maxPhrases == 500_000)
    }

    /// An external entity is not loaded: the document is refused or the entity left out, and
    /// the secret file's content never appears.
    @Test func externalEntitiesAreInert() throws {
        let secret = Fixtures.temporaryDirectory("xxe") + "/secret.txt"
        try "TOPSECRET".write(toFile: secret, atomically: true, encoding: .utf8)
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE smil [<!ENTITY xxe SYSTEM "file://\(secret)">]>
            <smil xmlns="http://www.w3.org/ns/SMIL" version="3.0"><body>
            <par><text src="c.xhtml#&xxe;"/></par></body></smil>
            """
        let outcome: String
        do {
            outcome = try MediaOverlayParser.parse(Data(xml.utf8), href: Self.href).phrases.map(\.textLocation).joined()
        } catch {
            outcome = error.userMessage
        }
        #expect(!outcome.contains("TOPSECRET"), "\(outcome)")
    }

    /// The W3C's mol-navigation test book: its overlays reach the links, with durations and classes.
    @Test func theW3CSampleDeclaresItsOverlays() throws {
        let book = try EPUBTestSupport.parseSample("epub/w3c-mol-navigation.epub")
        let manifest = book.builder.manifest
        #expect(manifest.readingOrder.map(\.mediaOverlayHref) == ["EPUB/mo/ch1.smil", "EPUB/mo/ch2.smil"])
        #expect(manifest.metadata.mediaOverlayActiveClass == "my-active-item")
        #expect(manifest.metadata.mediaOverlayPlaybackActiveClass == "my-document-playing")
        #expect(manifest.resources.first { $0.href == "EPUB/mo/ch1.smil" }?.duration == 29.218)
        let smil = try book.builder.fetcher.get(Link(href: "EPUB/mo/ch1.smil")).read().get()
        let overlay = try MediaOverlayParser.parse(smil, href: "EPUB/mo/ch1.smil")
        #expect(overlay.phrases.map(\.fragment) == ["mo-1", "mo-2", "mo-3", "mo-3"])
        #expect(overlay.phrases.last?.clip == MediaOverlayClip(href: "EPUB/audio/ch1.mp3", begin: 12.398, end: 29.218))
    }
}
