import Foundation
import Shared
import Testing
import TestSupport

/// Text that deflates well, different on every line.
func compressibleText(lines: Int) -> String {
    (0..<lines).map { "Line \($0): It was a dark and stormy night; the rain fell in torrents — \($0 * 7919 % 1000)." }
        .joined(separator: "\n")
}

/// Bytes that do not compress, reproducible.
func noise(count: Int, seed: UInt64 = 42) -> Data {
    var state = seed
    var data = Data(count: count)
    for index in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        data[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return data
}

@Suite final class ArchiveFetcherTests {
    let directory = Fixtures.temporaryDirectory("archive-fetcher")

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    func archive(_ entries: [ZipBuilder.Entry]) throws -> String {
        let path = directory + "/test-\(UUID().uuidString).zip"
        try ZipBuilder.write(entries, to: path)
        return path
    }

    @Test func linksInArchiveOrderWithMediaTypes() throws {
        let path = try archive([
            .init("mimetype", "application/epub+zip", compression: .stored),
            .init("OEBPS/z.xhtml", compressibleText(lines: 50)),
            .init("OEBPS/a.css", "body { color: black }"),
            .init("images/b.png", noise(count: 100), compression: .stored),
            .init("xhtml/一 two.xhtml", "<html/>"),
            .init("C:odd.txt", "colon"),
        ])
        let fetcher = try ArchiveFetcher(path: path)
        defer { fetcher.close() }
        #expect(fetcher.links.map(\.href) == [
            "mimetype", "OEBPS/z.xhtml", "OEBPS/a.css", "images/b.png", "xhtml/%E4%B8%80%20two.xhtml", "C%3Aodd.txt",
        ])
        #expect(fetcher.links.map(\.mediaType) == [nil, .xhtml, .css, .png, .xhtml, .text])
        let xhtml = fetcher.links[1]
        #expect(xhtml.properties["archive"]?["isEntryCompressed"] == .bool(true))
        let png = fetcher.links[3]
        #expect(png.properties["archive"]?["isEntryCompressed"] == .bool(false))
        #expect(png.properties["archive"]?["entryLength"] == .number("100"))
        // Every listed link can be read, and reads what was stored.
        #expect(fetcher.get(fetcher.links[0]).read().text == "application/epub+zip")
        #expect(fetcher.get(href: "xhtml/%E4%B8%80%20two.xhtml").read().text == "<html/>")
        #expect(fetcher.get(fetcher.links[5]).read().text == "colon")
        #expect(fetcher.get(href: "OEBPS/z.xhtml").read().text == compressibleText(lines: 50))
        #expect(fetcher.get(href: "/OEBPS/a.css#x").read().text == "body { color: black }")
        #expect(fetcher.get(href: "OEBPS/z.xhtml").length.value == UInt64(compressibleText(lines: 50).utf8.count))
        #expect(fetcher.get(Link(href: "OEBPS/a.css")).link.mediaType == .css)
    }

    @Test(arguments: ["epub/debian-live-manual.en.epub", "lcp/swifttoolkit-epub-lcp.epub", "epub/idpf-kusamakura-preview.epub"])
    func realSampleOrderWithoutDirectories(sample: String) throws {
        let path = Fixtures.sample(sample)
        let fetcher = try ArchiveFetcher(path: path)
        defer { fetcher.close() }
        let listing = String(decoding: try Command.run(["unzip", "-Z1", path]), as: UTF8.self)
            .split(separator: "\n").map(String.init)
        #expect(fetcher.links.compactMap(\.path) == listing.filter { !$0.hasSuffix("/") })
        #expect(fetcher.archive.entries.count == listing.count)
        for link in fetcher.links {
            #expect(fetcher.get(link).read().value != nil, "\(link.href) in \(sample)")
        }
    }

    @Test func mimetypeLastInTheDebianManual() throws {
        let fetcher = try ArchiveFetcher(path: Fixtures.sample("epub/debian-live-manual.en.epub"))
        defer { fetcher.close() }
        #expect(fetcher.links.last?.href == "mimetype")
        #expect(fetcher.get(href: "mimetype").read().text == "application/epub+zip\n")
    }

    @Test func mediaTypeNeedsARealExtension() throws {
        let path = try archive([.init("xhtml", "x"), .init("OEBPS.epub/README", "r"), .init(".css", "hidden")])
        let fetcher = try ArchiveFetcher(path: path)
        defer { fetcher.close() }
        #expect(fetcher.links.map(\.mediaType) == [nil, nil, nil])
        #expect(fetcher.get(Link(href: "xhtml")).link.mediaType == nil)
    }

    @Test func missingEntriesAreNotFound() throws {
        let path = try archive([.init("a.txt", "A")])
        let fetcher = try ArchiveFetcher(path: path)
        defer { fetcher.close() }
        #expect(fetcher.get(href: "b.txt").read().error?.isNotFound == true)
        #expect(fetcher.get(href: "A.TXT").read().error?.isNotFound == true)
        #expect(fetcher.get(href: "https://example.com/a.txt").read().error?.isNotFound == true)
        #expect(fetcher.get(href: "../a.txt").read().text == "A") // clamped to the root
    }

    @Test func readsAfterCloseAreUnavailable() throws {
        let path = try archive([.init("a.txt", "A"), .init("s.bin", noise(count: 1000), compression: .stored)])
        let fetcher = try ArchiveFetcher(path: path)
        let before = fetcher.get(href: "a.txt")
        let stored = fetcher.get(href: "s.bin")
        #expect(before.read().text == "A")
        fetcher.close()
        #expect(before.read().error?.isUnavailable == true)
        #expect(stored.read(range: 10..<20).error?.isUnavailable == true)
        #expect(fetcher.get(href: "a.txt").read().error?.isUnavailable == true)
        fetcher.close() // twice is harmless
    }

    @Test func rangedReadOfAStoredEntryDoesNotReadTheWholeEntry() throws {
        let content = noise(count: 4_000_000)
        let path = try archive([.init("first.txt", "x"), .init("big.bin", content, compression: .stored)])
        // Damage bytes far after the ranges read below: a whole read now fails its CRC.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try ZipSurgery.locate("big.bin", in: bytes).compressionMethod == 0)
        try ZipSurgery.corrupt("big.bin", at: 2_000_000, count: 16, in: &bytes)
        try bytes.write(to: URL(fileURLWithPath: path))

        let fetcher = try ArchiveFetcher(path: path)
        defer { fetcher.close() }
        let resource = fetcher.get(href: "big.bin")
        let whole = resource.read()
        #expect(whole.error?.isOther == true, "the whole read must see the damage")
        // A ranged read at the start only touches its own bytes.
        #expect(resource.read(range: 0..<1000).value == content[0..<1000])
        #expect(resource.read(range: 1_000_000..<1_000_100).value == content[1_000_000..<1_000_100])
        // And so does one at the end, after the damage: it seeks instead of reading through.
        #expect(resource.read(range: 3_999_000..<4_000_000).value == content[3_999_000..<4_000_000])
        #expect(resource.read(range: 3_999_990..<5_000_000).value == content[3_999_990...])
    }

    @Test func rangedReadsOfADeflatedEntryAreSlicesOfTheWhole() throws {
        let text = Data(compressibleText(lines: 8000).utf8)
        let path = try archive([
            .init("a.txt", text), .init("b.txt", Data(compressibleText(lines: 10).utf8)), .init("c.txt", "ccc"),
            .init("d.txt", "ddd"), .init("e.txt", "eee"), .init("f.txt", "fff"),
        ])
        let location = try ZipSurgery.locate("a.txt", in: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(location.compressionMethod == 8)
        let fetcher = try ArchiveFetcher(path: path)
        defer { fetcher.close() }
        let resource = fetcher.get(href: "a.txt")
        let whole = try resource.read().get()
        #expect(whole == text)
        let count = UInt64(text.count)
        let ranges: [Range<UInt64>] = [
            0..<10, 10..<20, 5..<6, 100_000..<100_500, 50..<60, count - 10..<count, count - 5..<count + 100,
            count..<count + 10, 0..<count, 300_000..<300_000, 12_345..<54_321, 1..<2,
        ]
        for range in ranges {
            #expect(resource.read(range: range).value == text.slice(range), "range \(range)")
            // Interleave reads of other entries, more than the cursors kept open.
            for name in ["b.txt", "c.txt", "d.txt", "e.txt", "f.txt"] {
                _ = fetcher.get(href: name).read(range: 1..<2)
            }
        }
    }

    @Test func concurrentRangedReadsAgree() async throws {
        let text = Data(compressibleText(lines: 3000).utf8)
        let stored = noise(count: 300_000)
        let path = try archive([.init("t.txt", text), .init("s.bin", stored, compression: .stored)])
        let fetcher = try ArchiveFetcher(path: path)
        defer { fetcher.close() }
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var ok = true
                    for step in 0..<40 {
                        let start = UInt64((task * 7919 + step * 3571) % 200_000)
                        let range = start..<start + 777
                        ok = ok && fetcher.get(href: "t.txt").read(range: range).value == text.slice(range)
                        ok = ok && fetcher.get(href: "s.bin").read(range: range).value == stored.slice(range)
                    }
                    return ok
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }

    @Test func encryptedEntriesAreForbidden() throws {
        let fetcher = try ArchiveFetcher(path: Fixtures.sample("protected-zip/derived-wasteland-pkzip-secret.epub"))
        defer { fetcher.close() }
        #expect(fetcher.get(href: "mimetype").read().error?.isForbidden == true)
        #expect(fetcher.get(href: "META-INF/container.xml").read().error?.isForbidden == true)
        fetcher.archive.setPassword("secret")
        #expect(fetcher.get(href: "mimetype").read().text == "application/epub+zip")
    }

    @Test func wrongPasswordsNeverServeData() throws {
        // One wrong password in 256 passes PKWARE's check byte and fails later, on the data:
        // then the entry reads as damaged (the ZIP password protection verifies passwords,
        // CRC included, before anything is read); every other wrong password is forbidden.
        let fetcher = try ArchiveFetcher(path: Fixtures.sample("protected-zip/derived-page-blanche-excerpt-pkzip-secret.cbz"))
        defer { fetcher.close() }
        let href = try #require(fetcher.links.first { $0.mediaType == .jpeg }?.href)
        for candidate in 0..<400 {
            fetcher.archive.setPassword("not-secret-\(candidate)")
            let error = fetcher.get(href: href).read().error
            #expect(error?.isForbidden == true || String(describing: error).contains("checksum"),
                    "not-secret-\(candidate): \(String(describing: error))")
        }
        fetcher.archive.setPassword("secret")
        #expect(fetcher.get(href: href).read().value?.starts(with: [0xFF, 0xD8]) == true)
    }

    @Test func damagedArchivesThrowClearErrors() throws {
        let path = directory + "/garbage.zip"
        try writeFile(path, "this is not a zip archive at all, just text")
        #expect(throws: (any Error).self) { try ArchiveFetcher(path: path) }
        #expect(throws: (any Error).self) { try ArchiveFetcher(path: directory + "/missing.zip") }
    }
}
