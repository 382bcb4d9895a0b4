import Foundation
import Shared
import Streamer
import Testing
import TestSupport
import TextLayout
import TerminalCells

/// `lectern render` on real samples, run as a process.
@Suite struct RenderCommandTests {
    let lectern = LecternProcess()

    func widest(_ output: String) -> Int {
        output.split(separator: "\n", omittingEmptySubsequences: false).map { CellWidth.of($0) }.max() ?? 0
    }

    @Test func rendersTheWholeReadingOrder() throws {
        let result = try lectern.run(["render", Fixtures.sample("epub/idpf-wasteland.epub")])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("\nApril is the cruellest month, breeding\n"))
        #expect(result.stdout.hasPrefix("The Waste Land\n══════════════\n"))
        #expect(widest(result.stdout) <= 80)
    }

    /// The command prints exactly what the engine lays out.
    @Test func outputIsTheEngineLayout() async throws {
        let path = Fixtures.sample("epub/idpf-childrens-literature.epub")
        let result = try lectern.run(["render", path, "--width", "57", "--justify"])
        #expect(result.status == 0)
        let publication = try await PublicationOpener().open(asset: try AssetRetriever().retrieve(path: path), allowUserInteraction: false)
        defer { publication.close() }
        let loader = ContentDocumentLoader(publication: publication)
        var expected: [String] = []
        for (number, link) in publication.readingOrder.enumerated() {
            if number > 0 { expected.append("") }
            expected += LayoutEngine.layout(try loader.load(link), options: LayoutOptions(width: 57, justify: true)).lines.map(\.text)
        }
        #expect(result.stdout == expected.joined(separator: "\n") + "\n")
    }

    @Test func hrefRendersOneResource() throws {
        let result = try lectern.run(["render", Fixtures.sample("epub/idpf-moby-dick.epub"), "--href", "OPS/chapter_001.xhtml", "--width", "50"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Chapter 1. Loomings.\n"))
        #expect(!result.stdout.contains("Chapter 2."))
        #expect(widest(result.stdout) <= 50)
        let missing = try lectern.run(["render", Fixtures.sample("epub/idpf-moby-dick.epub"), "--href", "OPS/nothing.xhtml"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("OPS/nothing.xhtml"))
    }

    @Test(arguments: [9, 30, 61])
    func japaneseAndArabicFitTheWidth(_ width: Int) throws {
        for sample in ["epub/idpf-kusamakura-preview.epub", "epub/idpf-regime-anticancer-arabic.epub"] {
            let result = try lectern.run(["render", Fixtures.sample(sample), "--width", String(width)])
            #expect(result.status == 0, "\(sample): \(result.stderr)")
            #expect(widest(result.stdout) <= width, "\(sample)")
        }
    }

    @Test func justifyFillsParagraphLines() throws {
        let result = try lectern.run(["render", Fixtures.sample("epub/idpf-moby-dick.epub"), "--href", "OPS/chapter_001.xhtml",
                                      "--width", "50", "--justify"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { CellWidth.of($0) == 50 }.count > lines.count / 2)
        #expect(lines.contains { $0.contains("  ") })
    }

    @Test func widthComesFromColumnsByDefault() throws {
        let path = Fixtures.sample("epub/idpf-moby-dick.epub")
        let narrow = try lectern.run(["render", path, "--href", "OPS/chapter_001.xhtml"], environment: ["COLUMNS": "44"])
        #expect(widest(narrow.stdout) <= 44)
        #expect(widest(narrow.stdout) > 38)
        let standard = try lectern.run(["render", path, "--href", "OPS/chapter_001.xhtml"], environment: ["COLUMNS": "nonsense"])
        #expect(widest(standard.stdout) <= 80)
        #expect(widest(standard.stdout) > 70)
    }

    @Test func restrictedPublicationsAreRefusedWithTheirProtectionError() throws {
        let result = try lectern.run(["render", Fixtures.sample("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub")])
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("LCP"))
    }

    @Test func badArgumentsAndMissingFiles() throws {
        let tooNarrow = try lectern.run(["render", Fixtures.sample("epub/idpf-wasteland.epub"), "--width", "1"])
        #expect(tooNarrow.status == 64)
        #expect(tooNarrow.stderr.contains("--width"))
        let missing = try lectern.run(["render", "/nonexistent/book.epub"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file"))
    }

    @Test func aFileListedSeveralTimesInTheReadingOrderIsRenderedOnce() throws {
        // The Debian manual lists each XHTML file many times, with fragments.
        let result = try lectern.run(["render", Fixtures.sample("epub/debian-live-manual.en.epub")])
        #expect(result.status == 0)
        #expect(result.stdout.components(separatedBy: "\n$ make build PROOF=1\n").count == 2)
    }

    @Test func nonTextResourcesAreReportedAndTheRestRendered() throws {
        let result = try lectern.run(["render", Fixtures.sample("audiobook/swifttoolkit-audiotest.zab")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no text"))
    }
}
