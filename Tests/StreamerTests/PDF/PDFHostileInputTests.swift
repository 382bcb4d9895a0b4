import Foundation
import LibPoppler
import Shared
import Streamer
import Testing
import TestSupport

/// Broken and hostile PDFs end in a clear error or a usable publication — never a crash, a
/// hang or garbage.
@Suite(.timeLimit(.minutes(2)))
struct PDFHostileInputTests {
    func write(_ data: Data, named name: String = "hostile.pdf") throws -> String {
        let path = Fixtures.temporaryDirectory("pdf-hostile") + "/" + name
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Opens `path` as a publication; returns the opening error.
    func openingError(_ path: String, credentials: String? = nil) async -> OpeningError? {
        do {
            let asset = try AssetRetriever().retrieve(path: path)
            _ = try await PublicationOpener().open(asset: asset, allowUserInteraction: false, credentials: credentials)
            return nil
        } catch let error as OpeningError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    func expectDamaged(_ path: String, mentioning words: String = "", sourceLocation: SourceLocation = #_sourceLocation) async {
        guard let error = await openingError(path) else {
            Issue.record("opened", sourceLocation: sourceLocation)
            return
        }
        guard case .parsingFailed = error else {
            Issue.record("expected parsingFailed, got \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(error.userMessage.contains("damaged"), "\(error.userMessage)", sourceLocation: sourceLocation)
        if !words.isEmpty {
            #expect(error.userMessage.contains(words), "\(error.userMessage)", sourceLocation: sourceLocation)
        }
    }

    @Test func truncatedFile() async throws {
        let whole = Fixtures.bytes(Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf"))
        for length in [6, 100, 5000, whole.count / 2] {
            let path = try write(whole.prefix(length))
            await expectDamaged(path)
            #expect(throws: PDFError.self) { try PDFDocument(path: path) }
        }
    }

    @Test func garbageAfterTheHeader() async throws {
        var data = Data("%PDF-1.7\n".utf8)
        var generator = SystemRandomNumberGenerator()
        data += Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        await expectDamaged(try write(data))
        await expectDamaged(try write(Data("%PDF-".utf8)))
    }

    @Test func aBogusEncryptionDictionaryIsAnIncorrectPassword() async throws {
        var builder = PDFBuilder.text(pages: ["Secret"])
        builder.add("<< /Filter /Standard /V 2 /R 3 /Length 128 /O (not a key) /U (not a key either) /P -4 >>")
        builder.trailer = "/Encrypt \(builder.objects.count) 0 R /ID [<00112233445566778899aabbccddeeff> <00112233445566778899aabbccddeeff>]"
        let path = try builder.write()
        let error = await openingError(path)
        guard case .incorrectCredentials = error else {
            Issue.record("expected incorrectCredentials, got \(String(describing: error))")
            return
        }
        let withPassword = await openingError(path, credentials: "anything")
        guard case .incorrectCredentials = withPassword else {
            Issue.record("expected incorrectCredentials, got \(String(describing: withPassword))")
            return
        }
    }

    @Test func anEncryptionDictionaryOfAnUnknownHandlerIsIgnoredByPoppler() async throws {
        var builder = PDFBuilder.text(pages: ["Visible"])
        builder.add("<< /Filter /Standard /V 99 /R 99 >>")
        builder.trailer = "/Encrypt \(builder.objects.count) 0 R"
        let asset = try AssetRetriever().retrieve(path: try builder.write())
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
        #expect(publication.pageTextService?.text(ofPage: 0) == "Visible")
    }

    @Test func aHugeDeclaredStreamLength() async throws {
        var builder = PDFBuilder.text(pages: ["Hello"])
        // Content stream of page 1 (object 5) claims a length far past the end of the file.
        builder.objects[4] = Data("<< /Length 999999999999 >>\nstream\nBT /F1 12 Tf 20 100 Td (Hello) Tj ET\nendstream".utf8)
        let asset = try AssetRetriever().retrieve(path: try builder.write())
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
        #expect(publication.metadata.numberOfPages == 1)
        #expect(publication.pageTextService?.text(ofPage: 0) == "Hello")
    }

    @Test func aHugeDeclaredPageCount() async throws {
        var builder = PDFBuilder.text(pages: ["Hello"])
        builder.objects[1] = Data("<< /Type /Pages /Kids [4 0 R] /Count 2000000000 >>".utf8)
        await expectDamaged(try builder.write(), mentioning: "no pages")
    }

    @Test func aPageTreeThatContainsItself() async throws {
        var builder = PDFBuilder.text(pages: ["Hello"])
        builder.objects[1] = Data("<< /Type /Pages /Kids [4 0 R 2 0 R] /Count 2 >>".utf8)
        let asset = try AssetRetriever().retrieve(path: try builder.write())
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
        let service = try #require(publication.pageTextService)
        for index in 0..<service.pageCount { _ = service.text(ofPage: index) }
        #expect(service.text(ofPage: 0) == "Hello")
        #expect(service.pageCount <= 2)
    }

    @Test func aRecursiveOutline() async throws {
        var builder = PDFBuilder.text(pages: ["Hello"], catalogExtra: "/Outlines 6 0 R")
        builder.add("<< /Type /Outlines /First 7 0 R /Last 7 0 R /Count 2 >>")                                            // 6
        builder.add("<< /Title (A) /Parent 6 0 R /First 8 0 R /Last 8 0 R /Next 7 0 R /Count 1 /Dest [4 0 R /Fit] >>")   // 7
        builder.add("<< /Title (B) /Parent 7 0 R /First 7 0 R /Last 7 0 R /Next 8 0 R /Prev 8 0 R /Count 1 /Dest [4 0 R /Fit] >>") // 8
        let asset = try AssetRetriever().retrieve(path: try builder.write())
        let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
        #expect(publication.tableOfContents.first?.title == "A")
        #expect(depth(publication.tableOfContents) <= 32)
        #expect(count(publication.tableOfContents) <= 10_000)
    }

    @Test func aVeryDeepOutlineIsCut() throws {
        // 200 nested levels: each entry's only child is the next one.
        let levels = 200
        var builder = PDFBuilder.text(pages: ["Hello"], catalogExtra: "/Outlines 6 0 R")
        builder.add("<< /Type /Outlines /First 7 0 R /Last 7 0 R /Count \(levels) >>")
        for level in 0..<levels {
            let number = 7 + level
            let parent = level == 0 ? 6 : number - 1
            let child = level + 1 < levels ? "/First \(number + 1) 0 R /Last \(number + 1) 0 R /Count 1" : ""
            builder.add("<< /Title (Level \(level)) /Parent \(parent) 0 R \(child) /Dest [4 0 R /Fit] >>")
        }
        let outline = try PDFDocument(data: builder.data).outline()
        var depth = 0
        var level = outline
        while let first = level.first { depth += 1; level = first.children }
        #expect(depth == 32)
    }

    @Test func notAPDFAtAll() async throws {
        let empty = try write(Data(), named: "empty.pdf")
        #expect(throws: PDFError.self) { try PDFDocument(path: empty) }
        #expect(throws: PDFError.self) { try PDFDocument(data: Data()) }
        #expect(throws: PDFError.self) { try PDFDocument(data: Data("<html>not a pdf</html>".utf8)) }
    }

    @Test func aDocumentWithoutPagesIsRefused() async throws {
        var builder = PDFBuilder()
        builder.add("<< /Type /Catalog /Pages 2 0 R >>")
        builder.add("<< /Type /Pages /Kids [] /Count 0 >>")
        await expectDamaged(try builder.write(), mentioning: "no pages")
    }

    private func depth(_ links: [Link]) -> Int {
        links.map { 1 + depth($0.children) }.max() ?? 0
    }

    private func count(_ links: [Link]) -> Int {
        links.reduce(0) { $0 + 1 + count($1.children) }
    }

    /// An AES-256 (R6) PDF whose user password is 127 × "x", made by qpdf.
    func pdfWithLongestPassword() throws -> String {
        let path = Fixtures.temporaryDirectory("pdf-long-password") + "/long.pdf"
        _ = try Command.run(["qpdf", "--encrypt", String(repeating: "x", count: 127), "owner", "256", "--",
                             Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf"), path])
        return path
    }

    /// poppler overflows a stack buffer on R6 passwords of 128 bytes or more; they are cut
    /// to 127 bytes (ISO 32000-2) before poppler sees them, so a longer password opens the
    /// document when its first 127 bytes are the password, and is refused otherwise.
    @Test func passwordsBeyond127BytesAreTruncatedNotOverflowed() async throws {
        let path = try pdfWithLongestPassword()
        let data = Fixtures.bytes(path)
        for length in [127, 128, 200, 1000, 100_000] {
            let password = String(repeating: "x", count: length)
            #expect(try PDFDocument(path: path, password: password).pageCount == 4, "\(length)")
            #expect(try PDFDocument(data: data, password: password).pageCount == 4, "\(length)")
        }
        for password in [String(repeating: "y", count: 128), String(repeating: "é", count: 500),
                         String(repeating: "x", count: 126)] {
            #expect(throws: PDFError.passwordRequired) { try PDFDocument(path: path, password: password) }
            #expect(throws: PDFError.passwordRequired) { try PDFDocument(data: data, password: password) }
        }
        // Through the publication opener, as the dialog and the command line reach poppler.
        #expect(await openingError(path, credentials: String(repeating: "x", count: 4096)) == nil)
        guard case .incorrectCredentials = await openingError(path, credentials: String(repeating: "z", count: 4096)) else {
            Issue.record("a wrong long password is an incorrect password")
            return
        }
    }
}
