import Shared
import Testing

@Suite struct MediaTypeTests {
    @Test func parsesTypeSubtypeAndParameters() throws {
        let type = try #require(MediaType("Application/Atom+XML; Profile=opds-catalog ;TYPE=\"entry\""))
        #expect(type.type == "application")
        #expect(type.subtype == "atom+xml")
        #expect(type.parameters == ["profile": "opds-catalog", "type": "entry"])
        #expect(type.essence == "application/atom+xml")
        #expect(type.structuredSyntaxSuffix == "+xml")
        #expect(type.string == "application/atom+xml;profile=opds-catalog;type=entry")
        #expect(type == .opds1Entry)
    }

    @Test(arguments: ["", "text", "text/", "/html", "text/html/x", "te xt/html", ";charset=utf-8", "text/ html", " / "])
    func rejectsInvalidMediaTypes(string: String) {
        #expect(MediaType(string) == nil)
    }

    @Test func toleratesSurroundingWhitespaceAndEmptyParameters() throws {
        let type = try #require(MediaType("  text/html ; ; charset = utf-8 ;flag"))
        #expect(type.essence == "text/html")
        #expect(type.parameters == ["charset": "UTF-8"])
    }

    @Test(arguments: [
        ("text/html;charset=utf-8", "UTF-8"),
        ("text/html; charset=\"UTF-8\"", "UTF-8"),
        ("text/html;charset=utf8", "UTF-8"),
        ("text/plain;charset=latin1", "ISO-8859-1"),
        ("text/plain;charset=iso-8859-1", "ISO-8859-1"),
        ("text/plain;charset=ISO_8859-1", "ISO-8859-1"),
        ("text/plain;charset=cp1252", "WINDOWS-1252"),
        ("text/plain;charset=Windows-1252", "WINDOWS-1252"),
        ("text/plain;charset=utf-16le", "UTF-16LE"),
        ("text/plain;charset=ascii", "US-ASCII"),
        ("text/plain;charset=x-unknown", "X-UNKNOWN"),
    ])
    func charsetIsNormalised(string: String, charset: String) throws {
        #expect(try #require(MediaType(string)).charset == charset)
    }

    @Test func equalMediaTypesCompareEqual() {
        #expect(MediaType("text/html;charset=utf-8") == MediaType("TEXT/HTML; Charset=UTF-8"))
        #expect(MediaType("text/html;charset=utf8") == MediaType("text/html;charset=utf-8"))
        #expect(MediaType("application/atom+xml;type=entry;profile=opds-catalog")
            == MediaType("application/atom+xml;profile=opds-catalog;type=entry"))
        #expect(MediaType("text/html") != MediaType("text/html;charset=utf-8"))
        // Only the charset value is case-insensitive.
        #expect(MediaType("a/b;x=Y") != MediaType("a/b;x=y"))
    }

    @Test func containsAndMatches() throws {
        let html = try #require(MediaType("text/html"))
        let htmlUTF8 = try #require(MediaType("text/html;charset=utf-8"))
        #expect(html.contains(htmlUTF8))
        #expect(!htmlUTF8.contains(html))
        #expect(html.matches(htmlUTF8))
        #expect(htmlUTF8.matches(html))
        #expect(!html.contains(nil))
        #expect(!html.matches(nil))
        #expect(!html.matches(.xhtml))
        #expect(!MediaType("text/html;charset=utf-8")!.matches(MediaType("text/html;charset=ascii")))
        #expect(MediaType("text/*")!.contains(.css))
        #expect(!MediaType("text/*")!.contains(.json))
        #expect(MediaType("*/*")!.contains(.epub))
        #expect(MediaType("image/*")!.matches(.png))
    }

    @Test func families() {
        #expect(MediaType.epub.isZIP)
        #expect(MediaType.cbz.isZIP)
        #expect(MediaType.lcpProtectedPDF.isZIP)
        #expect(MediaType.lcpProtectedAudiobook.isZIP)
        #expect(!MediaType.pdf.isZIP)
        #expect(MediaType.opds2.isJSON)
        #expect(MediaType("application/json;charset=utf-8")!.isJSON)
        #expect(MediaType.readiumAudiobookManifest.isRWPM)
        #expect(MediaType.divinaManifest.isRWPM)
        #expect(!MediaType.opds2Publication.isRWPM)
        #expect(MediaType.xhtml.isHTML)
        #expect(MediaType("text/html;charset=utf-8")!.isHTML)
        #expect(MediaType.png.isBitmap)
        #expect(!MediaType.svg.isBitmap)
        #expect(MediaType.mp3.isAudio)
        #expect(MediaType.mp4.isVideo)
    }

    @Test(arguments: [
        ("epub", MediaType.epub), ("EPUB", .epub), ("xhtml", .xhtml), ("htm", .html), ("jpg", .jpeg), ("JPEG", .jpeg),
        ("m4b", .m4a), ("lcpl", .lcpLicenseDocument), ("lcpdf", .lcpProtectedPDF), ("cbz", .cbz), ("json", .json),
        ("woff2", .woff2), ("mp3", .mp3), ("opf", .opf), ("ncx", .ncx), ("svg", .svg),
    ])
    func mediaTypeOfFileExtension(fileExtension: String, expected: MediaType) {
        #expect(MediaType.of(fileExtension: fileExtension) == expected)
    }

    @Test func mediaTypeOfPath() {
        #expect(MediaType.of(path: "OEBPS/text/c1.XHTML") == .xhtml)
        #expect(MediaType.of(path: "cover.jpeg") == .jpeg)
        #expect(MediaType.of(path: "archive.tar.gz") == nil)
        #expect(MediaType.of(path: "mimetype") == nil)
        #expect(MediaType.of(path: "css") == nil)
        #expect(MediaType.of(path: ".css") == nil)
        #expect(MediaType.of(path: "dir.epub/README") == nil)
        #expect(MediaType.of(path: "dir.epub/") == .epub)
        #expect(MediaType.of(path: "trailing.") == nil)
        #expect(MediaType.of(path: "") == nil)
        #expect(MediaType.of(path: "OEBPS/.css") == nil)
        #expect(MediaType.of(path: "日本/é.CSS") == .css)
        #expect(MediaType.of(path: "a//b.css//") == .css)
    }

    @Test func unknownExtensionsHaveNoMediaType() {
        #expect(MediaType.of(fileExtension: "") == nil)
        #expect(MediaType.of(fileExtension: "unknown") == nil)
        #expect(MediaType.of(fileExtension: ".epub") == nil)
    }

    @Test(arguments: [
        (MediaType.jpeg, "jpg"), (.html, "html"), (.epub, "epub"), (.m4a, "m4a"), (.xhtml, "xhtml"), (.tiff, "tiff"),
        (.lcpProtectedAudiobook, "lcpa"), (.ogg, "ogg"), (.bmp, "bmp"), (.aiff, "aiff"), (.png, "png"),
        (MediaType("text/html;charset=utf-8")!, "html"),
    ])
    func fileExtension(type: MediaType, expected: String) {
        #expect(type.fileExtension == expected)
        #expect(MediaType.of(fileExtension: expected)?.essence == type.essence)
    }

    @Test func mediaTypesWithoutExtension() {
        #expect(MediaType.binary.fileExtension == nil)
        #expect(MediaType("application/x-whatever")?.fileExtension == nil)
    }
}

@Suite struct LocalizedStringTests {
    @Test func parsesPlainAndLocalizedForms() throws {
        #expect(LocalizedString(json: .string("Moby-Dick")) == .nonlocalized("Moby-Dick"))
        let localized = try #require(LocalizedString(json: try JSONParser.parse(#"{"fr":"Le Petit Prince","en":"The Little Prince"}"#)))
        #expect(localized == .localized(["fr": "Le Petit Prince", "en": "The Little Prince"]))
        #expect(localized.string == "The Little Prince")
        #expect(localized.string(forLanguage: "fr") == "Le Petit Prince")
        #expect(localized.string(forLanguage: "de") == "The Little Prince")
        #expect(localized.string(forLanguage: nil) == "The Little Prince")
    }

    @Test func invalidFormsAreNil() throws {
        #expect(LocalizedString(json: nil) == nil)
        #expect(LocalizedString(json: .number("1")) == nil)
        #expect(LocalizedString(json: .object(JSONObject())) == nil)
        #expect(LocalizedString(json: try JSONParser.parse(#"{"en":1,"fr":null}"#)) == nil)
        // Non-string translations are skipped.
        #expect(LocalizedString(json: try JSONParser.parse(#"{"en":1,"fr":"un"}"#)) == .localized(["fr": "un"]))
    }

    @Test func defaultTranslation() {
        #expect(LocalizedString.localized(["fr": "a", "und": "b", "en": "c"]).string == "b")
        #expect(LocalizedString.localized(["fr": "a", "": "b"]).string == "b")
        #expect(LocalizedString.localized(["fr": "a", "en-US": "c"]).string == "c")
        #expect(LocalizedString.localized(["fr": "a", "de": "b"]).string == "b")
        #expect(LocalizedString.localized([:]).string == "")
    }

    @Test func defaultTranslationIsDeterministicWithSeveralEnglishOnes() {
        // Dictionary order must not decide: the first tag in order wins.
        for _ in 0..<50 {
            let string = LocalizedString.localized(["en-US": "color", "en-GB": "colour", "en-AU": "colour!", "fr": "couleur"])
            #expect(string.string == "colour!")
        }
    }

    @Test func jsonRoundTrip() throws {
        let localized = LocalizedString.localized(["fr": "texte", "en": "text", "ja": "テキスト"])
        #expect(JSONWriter().string(localized.json) == #"{"en":"text","fr":"texte","ja":"テキスト"}"#)
        #expect(LocalizedString(json: localized.json) == localized)
        #expect(LocalizedString.nonlocalized("x").json == .string("x"))
        let literal: LocalizedString = "literal"
        #expect(literal == .nonlocalized("literal"))
    }
}
