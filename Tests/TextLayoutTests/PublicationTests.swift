import Foundation
import Shared
import Streamer
import Testing
import TestSupport
@testable import TextLayout

/// Loading documents through a publication, notes in other documents, and who may render.
@Suite struct PublicationTests {
    /// A small EPUB whose chapter refers to notes in a separate notes document.
    static func notesEPUB() throws -> String {
        let path = Fixtures.temporaryDirectory("layout-notes") + "/notes.epub"
        let chapter = """
            <?xml version="1.0" encoding="utf-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en"><head><title>One</title></head>
            <body><p>A claim<a epub:type="noteref" href="notes.xhtml#n1">1</a> and another<a epub:type="noteref" href="notes.xhtml#missing">2</a>.</p>
            <p>An external <a href="https://example.org/">link</a>.</p></body></html>
            """
        let notes = """
            <?xml version="1.0" encoding="utf-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Notes</title></head>
            <body><aside epub:type="endnote" id="n1"><p>The evidence, at length.</p></aside></body></html>
            """
        let opf = """
            <?xml version="1.0" encoding="utf-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">notes-test</dc:identifier>
            <dc:title>Notes</dc:title><dc:language>en</dc:language><meta property="dcterms:modified">2024-01-01T00:00:00Z</meta></metadata>
            <manifest><item id="c1" href="chapter.xhtml" media-type="application/xhtml+xml"/>
            <item id="n" href="notes.xhtml" media-type="application/xhtml+xml"/>
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/></manifest>
            <spine><itemref idref="c1"/><itemref idref="n" linear="no"/></spine></package>
            """
        let nav = """
            <?xml version="1.0" encoding="utf-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Nav</title></head>
            <body><nav epub:type="toc"><ol><li><a href="chapter.xhtml">One</a></li></ol></nav></body></html>
            """
        let container = """
            <?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
            <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
            """
        try ZipBuilder.write([
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("META-INF/container.xml", container),
            .init("OEBPS/content.opf", opf),
            .init("OEBPS/nav.xhtml", nav),
            .init("OEBPS/chapter.xhtml", chapter),
            .init("OEBPS/notes.xhtml", notes),
        ], to: path)
        return path
    }

    @Test func notesInAnotherDocumentAreResolvedThroughThePublication() async throws {
        let asset = try AssetRetriever().retrieve(path: try Self.notesEPUB())
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
        defer { publication.close() }
        let loader = ContentDocumentLoader(publication: publication)
        let chapter = try loader.load(publication.readingOrder[0])
        #expect(chapter.title == "One")
        #expect(chapter.language == "en")
        let references = chapter.links.filter(\.isNoteReference)
        #expect(references.map(\.href) == ["OEBPS/notes.xhtml#n1", "OEBPS/notes.xhtml#missing"])
        let resolver = NoteResolver(loader: loader)
        #expect(resolver.note(for: references[0], in: chapter)?.plainText == "The evidence, at length.\n")
        #expect(resolver.note(for: references[1], in: chapter) == nil)
        let external = try #require(chapter.links.first { $0.isExternal })
        #expect(resolver.note(for: external, in: chapter) == nil)
        // The endnote aside is hidden from its own document's flow.
        #expect(try loader.load(href: "OEBPS/notes.xhtml").isEmpty)
    }

    @Test func missingAndNonTextResourcesAreTypedErrors() async throws {
        let publication = try await openSample("epub/idpf-wasteland.epub")
        defer { publication.close() }
        let loader = ContentDocumentLoader(publication: publication)
        #expect(throws: ContentLoadError.self) { try loader.load(href: "EPUB/nothing-here.xhtml") }
        do {
            _ = try loader.load(href: "EPUB/wasteland.css")
            Issue.record("a style sheet is not a text document")
        } catch {
            #expect(!error.userMessage.isEmpty)
        }
        let audio = try await openSample("audiobook/swifttoolkit-audiotest.zab")
        defer { audio.close() }
        do {
            _ = try ContentDocumentLoader(publication: audio).load(audio.readingOrder[0])
            Issue.record("audio is not text")
        } catch {
            guard case .notText = error else { Issue.record("unexpected \(error)"); return }
            #expect(error.userMessage.contains("no text"))
        }
    }

    /// A protection that unlocks with limited copy rights (as LCP does).
    final class LimitedProtection: ContentProtectionService {
        let isRestricted: Bool
        init(restricted: Bool) { isRestricted = restricted }
        var error: (any Error)? { isRestricted ? ResourceFailure("the passphrase is needed") : nil }
        var rights: any UserRights { LimitedRights() }
        var name: LocalizedString? { nil }
        var scheme: String { "test" }
    }

    struct LimitedRights: UserRights {
        var allowance: RightsAllowance { RightsAllowance(copy: .left(9), print: .denied) }
        func copy(text: String) async -> RightsDecision { text.count < 10 ? .granted(allowance) : .refused(allowance) }
        func print(pages: Int) async -> RightsDecision { .refused(allowance) }
    }

    static func publication(restricted: Bool?) -> Publication {
        var services = PublicationServicesBuilder()
        if let restricted {
            services.set(PublicationServicesBuilder.contentProtection) { _ in LimitedProtection(restricted: restricted) }
        }
        return Publication(manifest: Manifest(metadata: Metadata(title: "x")), servicesBuilder: services)
    }

    @Test func onlyUnrestrictedRightsMayBeWrittenOut() {
        #expect(throws: Never.self) { try RenderingPermission.checkExport(Self.publication(restricted: nil)) }
        #expect(throws: Never.self) { try RenderingPermission.checkDisplay(Self.publication(restricted: false)) }
        do {
            try RenderingPermission.checkExport(Self.publication(restricted: false))
            Issue.record("limited copy rights must refuse export")
        } catch {
            #expect(error.userMessage.contains("rendering to stdout is copying"))
        }
        do {
            try RenderingPermission.checkDisplay(Self.publication(restricted: true))
            Issue.record("a restricted publication must not be displayed")
        } catch {
            #expect(error.userMessage.contains("passphrase"))
        }
    }
}
