import Foundation
import Testing
import TestSupport

/// Numbers a publication declares — durations, bitrates, positions in a series — may be any
/// JSON or XML number: out of range, they are ignored, never converted into a trap.
@Suite struct HugeNumberTests {
    let lectern = LecternProcess()

    func expectNoTrap(_ result: LecternProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    /// The sample audiobook with its manifest's numbers replaced.
    func audiobook(metadataDuration: String, trackDuration: String, bitrate: String, position: String) throws -> String {
        let sample = Fixtures.sample("audiobook/derived-w3c-mol-navigation.audiobook")
        let work = Fixtures.temporaryDirectory("huge-numbers")
        _ = try ZipBuilder.run("/usr/bin/unzip", ["-q", sample, "-d", work])
        var manifest = String(decoding: Fixtures.bytes(work + "/manifest.json"), as: UTF8.self)
        manifest = manifest.replacingOccurrences(of: "\"duration\": 36.266", with: "\"duration\": \(metadataDuration), \"belongsTo\": {\"series\": {\"name\": \"S\", \"position\": \(position)}}")
        manifest = manifest.replacingOccurrences(of: "\"duration\": 29.218, \"bitrate\": 160", with: "\"duration\": \(trackDuration), \"bitrate\": \(bitrate)")
        let path = work + "/book.audiobook"
        try ZipBuilder.write([
            .init("manifest.json", manifest),
            .init("audio/ch1.mp3", Fixtures.bytes(work + "/audio/ch1.mp3"), compression: .stored),
            .init("audio/ch2.mp3", Fixtures.bytes(work + "/audio/ch2.mp3"), compression: .stored),
        ], to: path)
        return path
    }

    @Test(arguments: [("1e19", "1e17", "1e300", "1e300"), ("-1e19", "-5", "-1", "-1e300"), ("1e308", "1e308", "1e308", "1e308")])
    func infoAndListenSurviveHugeNumbers(metadata: String, track: String, bitrate: String, position: String) throws {
        let path = try audiobook(metadataDuration: metadata, trackDuration: track, bitrate: bitrate, position: position)
        let info = try lectern.run(["info", path])
        expectNoTrap(info)
        #expect(info.stdout.contains("Media overlay with navigation"))
        expectNoTrap(try lectern.run(["info", "--json", path]))
        // The decoded durations take over from the ignored declared ones.
        let listen = try lectern.run(["listen", "--json", "--output", "null", "--for", "0.5", path], timeout: 60)
        expectNoTrap(listen)
        #expect(listen.stdout.contains("\"event\":\"loaded\"") || listen.stdout.contains("\"event\": \"loaded\""), "\(listen.stdout)")
        #expect(!listen.stdout.contains("declaredDuration\":1e"), "a declared duration out of range is ignored")
    }

    @Test func epubSeriesPositionsAndDurationsOutOfRangeAreIgnored() throws {
        let opf = """
            <?xml version="1.0"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:title>Numbers</dc:title><dc:identifier id="id">x</dc:identifier><dc:language>en</dc:language>
                <meta property="belongs-to-collection" id="c">Series</meta>
                <meta refines="#c" property="collection-type">series</meta>
                <meta refines="#c" property="group-position">1e300</meta>
                <meta property="media:duration">99999999999999999999999</meta>
                <meta name="calibre:series_index" content="1e308"/>
              </metadata>
              <manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest>
              <spine><itemref idref="c1"/></spine>
            </package>
            """
        let path = Fixtures.temporaryDirectory("huge-numbers") + "/book.epub"
        try ZipBuilder.write([
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("META-INF/container.xml", HostileInputTests.container),
            .init("OPS/package.opf", opf),
            .init("OPS/c1.xhtml", "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>Hi</p></body></html>"),
        ], to: path)
        let info = try lectern.run(["info", path])
        expectNoTrap(info)
        #expect(info.stdout.contains("Numbers"))
        let json = try lectern.run(["info", "--json", path])
        expectNoTrap(json)
        #expect(!json.stdout.contains("1e+300") && !json.stdout.contains("1e300"), "\(json.stdout)")
    }
}
