import Foundation
import Testing
import TestSupport

/// `lectern check` on real samples, run as a process.
@Suite struct CheckCommandTests {
    let lectern = LecternProcess()

    /// The SHA-256 of each ZIP entry of `archive`, computed with `unzip` and `sha256sum`.
    func entryHashes(_ archive: String) throws -> [String: String] {
        let listing = try ZipBuilder.run("/usr/bin/unzip", ["-Z1", archive])
        var hashes: [String: String] = [:]
        for name in listing.split(separator: "\n").map(String.init) where !name.hasSuffix("/") {
            let output = try ZipBuilder.run("/bin/sh", ["-c", "unzip -p \"$0\" \"$1\" | sha256sum", archive, name.replacingOccurrences(of: "[", with: "\\[")])
            hashes[name] = String(output.prefix(64))
        }
        return hashes
    }

    func checkJSON(_ path: String, _ extra: [String] = []) throws -> (LecternProcess.Result, [String: Any]) {
        let result = try lectern.run(["check", "--json", path] + extra)
        let object = try #require(result.json as? [String: Any], "stdout: \(result.stdout) stderr: \(result.stderr)")
        return (result, object)
    }

    @Test(arguments: [
        "webpub/readium-mobydick.webpub",
        "cbz/derived-page-blanche-excerpt.cbz",
        "cbz/swifttoolkit-test-comicinfo.cbz",
        "audiobook/swifttoolkit-audiotest.zab",
        "audiobook/derived-w3c-mol-navigation.audiobook",
    ])
    func unprotectedPackagesAreReadWithEntryHashes(_ sample: String) throws {
        let path = Fixtures.sample(sample)
        let (result, report) = try checkJSON(path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(report["protection"] is NSNull)
        let expected = try entryHashes(path)
        let resources = try #require(report["resources"] as? [[String: Any]])
        #expect(!resources.isEmpty)
        for resource in resources {
            let href = try #require(resource["href"] as? String)
            #expect(resource["ok"] as? Bool == true, "\(href)")
            #expect(!href.hasPrefix("/"))
            #expect(resource["sha256"] as? String == expected[href], "\(href)")
        }
    }

    /// Every unprotected EPUB of the corpus: exit 0, and each resource's hash equals its ZIP
    /// entry's, except obfuscated fonts, which must come out deobfuscated.
    @Test(arguments: try! FileManager.default.contentsOfDirectory(atPath: Fixtures.sample("epub")).filter { $0.hasSuffix(".epub") }.sorted())
    func unprotectedEPUBsAreRead(_ name: String) throws {
        let path = Fixtures.sample("epub/" + name)
        let (result, report) = try checkJSON(path)
        #expect(result.status == 0, "\(name): \(result.stderr)")
        #expect(report["format"] as? String == "epub")
        let expected = try entryHashes(path)
        let resources = try #require(report["resources"] as? [[String: Any]])
        for resource in resources {
            let href = try #require(resource["href"] as? String)
            #expect(resource["ok"] as? Bool == true, "\(href)")
            if href.contains("font") || href.hasSuffix(".otf") || href.hasSuffix(".woff") || href.hasSuffix(".ttf") { continue }
            #expect(resource["sha256"] as? String == expected[href], "\(name): \(href)")
        }
    }

    @Test(arguments: [
        ("epub/idpf-wasteland-woff-obf.epub", [UInt8]("wOFF".utf8)),
        ("epub/derived-wasteland-woff-adobe-obf.epub", [UInt8]("wOFF".utf8)),
        ("epub/w3c-ocf-font_obfuscation.epub", [0, 1, 0, 0]),
    ])
    func obfuscatedFontsAreDeobfuscated(_ sample: String, _ magic: [UInt8]) throws {
        let path = Fixtures.sample(sample)
        let (_, report) = try checkJSON(path)
        let fonts = try #require(report["resources"] as? [[String: Any]]).compactMap { $0["href"] as? String }
            .filter { $0.hasSuffix(".woff") || $0.hasSuffix(".ttf") || $0.hasSuffix(".otf") }
        #expect(!fonts.isEmpty)
        for font in fonts {
            let bytes = try lectern.run(["cat", path, "--href", font, "--range", "0-4"]).stdout
            #expect(Array(bytes.utf8) == magic || Array(bytes.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }) == magic, "\(font)")
            let raw = try ZipBuilder.run("/bin/sh", ["-c", "unzip -p \"$0\" \"$1\" | head -c 4 | od -An -tx1", path, font])
            #expect(!raw.replacingOccurrences(of: " ", with: "").hasPrefix(magic.map { String(format: "%02x", $0) }.joined()),
                    "\(font) is stored obfuscated")
        }
    }

    @Test func textOutputSummarisesAndExitsZero() throws {
        let result = try lectern.run(["check", Fixtures.sample("cbz/derived-page-blanche-excerpt.cbz")])
        #expect(result.status == 0)
        #expect(result.stdout.contains("5 of 5 resources readable"))
    }

    @Test func missingFileExitsTwoWithOneClearLine() throws {
        let result = try lectern.run(["check", "/nonexistent/book.epub"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("no such file"))
        #expect(result.stdout.isEmpty)
    }

    @Test func jsonErrorsAreJSONOnStdoutToo() throws {
        let (result, report) = try checkJSON("/nonexistent/book.epub")
        #expect(result.status == 2)
        #expect((report["error"] as? String)?.contains("no such file") == true)
    }

    @Test func unsupportedFileIsRefusedWithExitTwo() throws {
        let result = try lectern.run(["check", Fixtures.sample("format-sniffing/unknown")])
        #expect(result.status == 2)
        #expect(!result.stderr.isEmpty)
    }
}
