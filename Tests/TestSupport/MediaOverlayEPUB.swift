import Foundation

/// An EPUB 3 with media overlays made by tests (no recording needed): two chapters of
/// paragraphs with ids, a SMIL document for each, and WAV files of tones generated here, so that
/// the timing of every phrase is known exactly.
///
/// Chapter 1 reads `c1p1` (a.wav 0–1 s), `c1p2` (1–2.5 s, following on), a page number inside a
/// `seq epub:type="pagebreak"` (2.5–2.8 s, skippable), and `c1p3` from 2.8 s with no `clipEnd`
/// (to the file's end, 4 s). Chapter 2 reads `c2p1` (b.wav, no `clipBegin`, to 1.5 s), `c2p2`
/// (1.5 s to a `clipEnd` of 99 s, past the file's end, 3 s) and `c2p3`, text only.
public enum MediaOverlayEPUB {
    /// One phrase as the book's clock has it with the page number skipped.
    public struct Phrase: Sendable {
        public let href: String
        public let fragment: String
        public let text: String
        /// Where it starts and ends on the book's clock, in seconds.
        public let start: Double
        public let end: Double
    }

    /// The phrases in reading order, timed, the page number skipped.
    public static let phrases: [Phrase] = [
        Phrase(href: "OPS/chapter1.xhtml", fragment: "c1p1", text: "The first sentence is read first.", start: 0, end: 1),
        Phrase(href: "OPS/chapter1.xhtml", fragment: "c1p2", text: "Then the second follows it.", start: 1, end: 2.5),
        Phrase(href: "OPS/chapter1.xhtml", fragment: "c1p3", text: "The third plays to the end of its file.", start: 2.5, end: 3.7),
        Phrase(href: "OPS/chapter2.xhtml", fragment: "c2p1", text: "A second chapter starts at the file's start.", start: 3.7, end: 5.2),
        Phrase(href: "OPS/chapter2.xhtml", fragment: "c2p2", text: "Its clip ends long after its audio.", start: 5.2, end: 6.7),
        Phrase(href: "OPS/chapter2.xhtml", fragment: "c2p3", text: "This one has no audio at all.", start: 6.7, end: 6.7),
    ]

    /// The text of the page number the overlay reads inside a `pagebreak`.
    public static let pageNumberText = "Page 7"

    static let durations = ["a.wav": 4.0, "b.wav": 3.0]

    /// The package's entries (besides `mimetype` and the container), with the audio files
    /// as `audio` gives them (to encrypt them, for instance).
    public static func resources(title: String = "Narrated Test Book") -> [(path: String, data: Data, mediaType: String)] {
        let chapter1 = xhtml(title: "One", body: """
            <h1>Chapter one</h1>
            <p id="c1p1">The first sentence is read first.</p>
            <p id="c1p2">Then the second follows it.</p>
            <p><span id="pg7" epub:type="pagebreak">\(pageNumberText)</span></p>
            <p id="c1p3">The third plays to the end of its file.</p>
            """)
        let chapter2 = xhtml(title: "Two", body: """
            <p id="c2p1">A second chapter starts at the file's start.</p>
            <p id="c2p2">Its clip ends long after its audio.</p>
            <p id="c2p3">This one has no audio at all.</p>
            """)
        let smil1 = smil("""
            <par id="a1"><text src="../chapter1.xhtml#c1p1"/><audio src="../audio/a.wav" clipBegin="0s" clipEnd="0:00:01.000"/></par>
            <par id="a2"><text src="../chapter1.xhtml#c1p2"/><audio src="../audio/a.wav" clipBegin="00:01" clipEnd="2500ms"/></par>
            <seq epub:type="pagebreak" epub:textref="../chapter1.xhtml#pg7">
              <par id="a3"><text src="../chapter1.xhtml#pg7"/><audio src="../audio/a.wav" clipBegin="2.5s" clipEnd="2.8"/></par>
            </seq>
            <par id="a4"><text src="../chapter1.xhtml#c1p3"/><audio src="../audio/a.wav" clipBegin="2.8"/></par>
            """)
        let smil2 = smil("""
            <par id="b1"><text src="../chapter2.xhtml#c2p1"/><audio src="../audio/b.wav" clipEnd="0.025min"/></par>
            <par id="b2"><text src="../chapter2.xhtml#c2p2"/><audio src="../audio/b.wav" clipBegin="1.5" clipEnd="99s"/></par>
            <par id="b3"><text src="../chapter2.xhtml#c2p3"/></par>
            """)
        let nav = xhtml(title: "Contents", body: """
            <nav epub:type="toc"><ol><li><a href="chapter1.xhtml">One</a></li><li><a href="chapter2.xhtml">Two</a></li></ol></nav>
            """)
        let opf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="id">urn:test:narrated</dc:identifier>
                <dc:title>\(title)</dc:title><dc:language>en</dc:language>
                <meta property="dcterms:modified">2026-01-01T00:00:00Z</meta>
                <meta property="media:duration" refines="#mo1">0:00:04</meta>
                <meta property="media:duration" refines="#mo2">3s</meta>
                <meta property="media:duration">0:00:07</meta>
                <meta property="media:active-class">-epub-media-overlay-active</meta>
                <meta property="media:playback-active-class">-epub-media-overlay-playing</meta>
              </metadata>
              <manifest>
                <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
                <item id="c1" href="chapter1.xhtml" media-type="application/xhtml+xml" media-overlay="mo1"/>
                <item id="c2" href="chapter2.xhtml" media-type="application/xhtml+xml" media-overlay="mo2"/>
                <item id="mo1" href="smil/chapter1.smil" media-type="application/smil+xml"/>
                <item id="mo2" href="smil/chapter2.smil" media-type="application/smil+xml"/>
                <item id="a" href="audio/a.wav" media-type="audio/wav"/>
                <item id="b" href="audio/b.wav" media-type="audio/wav"/>
              </manifest>
              <spine><itemref idref="c1"/><itemref idref="c2"/></spine>
            </package>
            """
        return [
            ("OPS/package.opf", Data(opf.utf8), "application/oebps-package+xml"),
            ("OPS/nav.xhtml", Data(nav.utf8), "application/xhtml+xml"),
            ("OPS/chapter1.xhtml", Data(chapter1.utf8), "application/xhtml+xml"),
            ("OPS/chapter2.xhtml", Data(chapter2.utf8), "application/xhtml+xml"),
            ("OPS/smil/chapter1.smil", Data(smil1.utf8), "application/smil+xml"),
            ("OPS/smil/chapter2.smil", Data(smil2.utf8), "application/smil+xml"),
            ("OPS/audio/a.wav", wav(seconds: durations["a.wav"]!, frequency: 440), "audio/wav"),
            ("OPS/audio/b.wav", wav(seconds: durations["b.wav"]!, frequency: 660), "audio/wav"),
        ]
    }

    /// Writes the book to `path`.
    public static func write(to path: String) throws {
        var entries = [ZipBuilder.Entry("mimetype", "application/epub+zip", compression: .stored),
                       ZipBuilder.Entry("META-INF/container.xml", TestEPUBs.containerXML)]
        entries += resources().map { ZipBuilder.Entry($0.path, $0.data) }
        try ZipBuilder.write(entries, to: path)
    }

    /// A SMIL 3.0 document whose body holds `body`.
    public static func smil(_ body: String, bodyAttributes: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <smil xmlns="http://www.w3.org/ns/SMIL" xmlns:epub="http://www.idpf.org/2007/ops" version="3.0">
          <body\(bodyAttributes.isEmpty ? "" : " " + bodyAttributes)>
        \(body)
          </body>
        </smil>
        """
    }

    static func xhtml(title: String, body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en">
        <head><title>\(title)</title></head><body>
        \(body)
        </body></html>
        """
    }

    /// A mono 16-bit PCM WAV file of `seconds` of a sine tone at `frequency` Hz (8 kHz sampling).
    public static func wav(seconds: Double, frequency: Double, sampleRate: Int = 8000) -> Data {
        let count = Int(seconds * Double(sampleRate))
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + count * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(1)); append(UInt16(1))
        append(UInt32(sampleRate)); append(UInt32(sampleRate * 2)); append(UInt16(2)); append(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(count * 2))
        for index in 0..<count {
            let sample = sin(2 * Double.pi * frequency * Double(index) / Double(sampleRate)) * 8000
            append(Int16(sample))
        }
        return data
    }
}
