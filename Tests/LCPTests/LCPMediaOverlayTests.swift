import Foundation
import Testing
import TestSupport

/// An LCP-protected EPUB with media overlays (chapters, SMIL and WAV audio all encrypted):
/// `lectern listen` plays the narration from memory, and no decrypted byte reaches the disk.
@Suite struct LCPMediaOverlayTests {
    let lectern = LecternProcess()

    /// The narrated test book's resources under OEBPS/, encrypted; each chapter names its overlay.
    func protectedNarratedBook() throws -> (path: String, audio: Data, text: String) {
        let license = try LicenseForge.make(LicenseSpec())
        let resources = MediaOverlayEPUB.resources().filter { !$0.path.hasSuffix(".opf") && !$0.path.hasSuffix("nav.xhtml") }
        let forged = resources.map { ForgedResource("OEBPS/" + $0.path.dropFirst("OPS/".count), $0.data, mediaType: $0.mediaType) }
        func id(of path: String) -> String { "r\(forged.firstIndex { $0.path == path }!)" }
        let attributes = ["OEBPS/chapter1.xhtml": "media-overlay=\"\(id(of: "OEBPS/smil/chapter1.smil"))\"",
                          "OEBPS/chapter2.xhtml": "media-overlay=\"\(id(of: "OEBPS/smil/chapter2.smil"))\""]
        let path = Fixtures.temporaryDirectory("lcp-narrated") + "/narrated.epub"
        try PackageForge.epub(at: path, license: license, resources: forged, title: "Protected Narration", itemAttributes: attributes)
        let audio = try #require(resources.first { $0.path == "OPS/audio/b.wav" }).data
        return (path, audio, MediaOverlayEPUB.phrases[3].text)
    }

    @Test func theNarrationPlaysFromMemory() throws {
        let (path, audio, text) = try protectedNarratedBook()
        let scratch = Fixtures.temporaryDirectory("lcp-narrated-tmp")
        let result = try lectern.run(["listen", "--passphrase", "open sesame", "--json", "--output", "null", "--start", "OEBPS/chapter2.xhtml",
                                      "--for", "2", path],
                                     environment: ["LECTERN_LCP_ANCHORS": TestPKI.shared.directory + "/ca/ca.pem", "TMPDIR": scratch])
        #expect(result.status == 0, "\(result.stderr)")
        let phrases = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["event"] as? String == "phrase" }
        #expect(phrases.map { $0["fragment"] as? String } == ["c2p1", "c2p2"], "\(result.stdout)")
        #expect(phrases.first?["text"] as? String == text)
        #expect(phrases.first?["clip"] as? String == "OEBPS/audio/b.wav#t=0,1.5")

        // Neither the audio nor the text is anywhere in clear: not in lectern's home (state,
        // caches), not in its temporary directory, not beside the book.
        let needles = [audio.subdata(in: 20_000..<20_064), Data(text.utf8)]
        for directory in [lectern.home, scratch, (path as NSString).deletingLastPathComponent] {
            for file in Self.files(under: directory) {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                for needle in needles {
                    #expect(data.range(of: needle) == nil, "\(file) holds decrypted content")
                }
            }
        }
        // The needle is real: the plaintext holds it, the package does not.
        #expect(audio.range(of: needles[0]) != nil)
    }

    static func files(under directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        return enumerator.compactMap { $0 as? String }.map { directory + "/" + $0 }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }
}
