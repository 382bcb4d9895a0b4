import Bookshelf
import Foundation
@testable import ReaderUI
import Shared
import Streamer
import Testing
import TestSupport

/// The bookshelf's covers: found in the publication (cover-image, first comic page), kept as
/// small thumbnails in the cache for unprotected books only, and a damaged cache file ignored
/// and rewritten.
@Suite struct ShelfCoverTests {
    /// Opens with the Streamer, never asking for a password (as the bookshelf does).
    static let open: PublicationOpening = { path, _, _ in
        do {
            let asset = try AssetRetriever().retrieve(path: path)
            let publication = try await PublicationOpener().open(asset: asset, allowUserInteraction: false)
            return .success(OpenedPublication(publication: publication, format: "", licenseID: nil))
        } catch {
            return .failure(OpenFailure(message: "\(error)"))
        }
    }

    static func loader() -> ShelfCoverLoader {
        ShelfCoverLoader(open: open, directory: Fixtures.temporaryDirectory("covers") + "/covers")
    }

    static func entry(_ path: String, identity: String, protection: ProtectionMark = .none) -> LibraryEntry {
        LibraryEntry(id: 1, identity: identity, path: path, title: "T", protection: protection)
    }

    static func files(in directory: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    /// The colour in the middle of a cover.
    static func middle(_ cover: ShelfCover) -> (Int, Int, Int)? {
        guard case .picture(let bitmap) = cover else { return nil }
        let (r, g, b, _) = bitmap.rgba(x: bitmap.width / 2, y: bitmap.height / 2)
        return (Int(r), Int(g), Int(b))
    }

    @Test func aComicsFirstPageIsItsCoverAndIsCachedSmall() async throws {
        let path = Fixtures.temporaryDirectory("cover-comic") + "/comic.cbz"
        try TestImages.comic(pages: [TestImages.solid(TestImages.red, width: 800, height: 1200), TestImages.solid(TestImages.blue)], to: path)
        let loader = Self.loader()
        let cover = await loader.cover(of: Self.entry(path, identity: "sha256:comic"))
        guard case .picture(let bitmap) = cover else { Issue.record("no cover: \(cover)"); return }
        #expect(bitmap.width <= CoverThumbnailCache.maxWidth && bitmap.height <= CoverThumbnailCache.maxHeight)
        #expect(bitmap.width == 256 && bitmap.height == 384, "scaled down, proportions kept")
        #expect(Self.middle(cover).map { $0.0 > 200 && $0.1 < 60 && $0.2 < 60 } == true, "red, the first page")
        // Kept in the cache, and read back as it was drawn.
        #expect(Self.files(in: loader.directory).count == 1)
        let cached = CoverThumbnailCache.read(identity: "sha256:comic", in: loader.directory)
        guard case .picture(let stored)? = cached else { Issue.record("not cached"); return }
        #expect(stored.width == bitmap.width && stored.height == bitmap.height)
        #expect(Self.middle(.picture(stored)).map { $0.0 > 200 && $0.1 < 60 } == true)
        // A second look comes from the cache: the file is gone, the cover is still known.
        try FileManager.default.removeItem(atPath: path)
        #expect(await loader.cover(of: Self.entry(path, identity: "sha256:comic")) == .picture(stored))
    }

    @Test func anEPUBsCoverImageIsItsCover() async throws {
        let path = Fixtures.temporaryDirectory("cover-epub") + "/book.epub"
        try TestEPUBs.write(title: "Green Book", cover: TestImages.solid(TestImages.green, width: 60, height: 90), to: path)
        let cover = await Self.loader().cover(of: Self.entry(path, identity: "id:green#1"))
        guard case .picture(let bitmap) = cover else { Issue.record("no cover: \(cover)"); return }
        #expect(bitmap.width == 60 && bitmap.height == 90, "never scaled up")
        #expect(Self.middle(cover).map { $0.1 > 200 && $0.0 < 60 } == true, "green")
    }

    @Test func anEPUBWithoutCoverIsRememberedAsSuch() async throws {
        let path = Fixtures.temporaryDirectory("cover-none") + "/book.epub"
        try TestEPUBs.write(title: "Plain Book", cover: nil, to: path)
        let loader = Self.loader()
        #expect(await loader.cover(of: Self.entry(path, identity: "id:plain#1")) == .none("No cover"))
        #expect(CoverThumbnailCache.read(identity: "id:plain#1", in: loader.directory) == .none("No cover"))
    }

    /// A publication marked protected is not opened, and nothing of it reaches the disk; nor
    /// does one the library believes unprotected but that opens with a protection.
    @Test(arguments: [
        ("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub", ProtectionMark.lcp),
        ("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub", ProtectionMark.none),
        ("protected-zip/derived-wasteland-pkzip-secret.epub", ProtectionMark.password),
        ("protected-zip/derived-wasteland-pkzip-secret.epub", ProtectionMark.none),
        ("protected-zip/derived-page-blanche-excerpt-pkzip-secret.cbz", ProtectionMark.none),
    ])
    func aProtectedPublicationsCoverIsNeverWritten(sample: String, mark: ProtectionMark) async throws {
        let path = Fixtures.sample(sample)
        #expect(FileManager.default.fileExists(atPath: path), "the sample exists")
        let loader = Self.loader()
        let cover = await loader.cover(of: Self.entry(path, identity: "id:protected#\(mark.rawValue)", protection: mark))
        guard case .none = cover else { Issue.record("a protected cover was shown: \(cover)"); return }
        #expect(Self.files(in: loader.directory).isEmpty, "nothing written to the cache")
    }

    /// The same comic is also protected when its entry says so: not opened, not cached.
    @Test func anEntryMarkedProtectedIsNotOpened() async throws {
        let path = Fixtures.temporaryDirectory("cover-marked") + "/comic.cbz"
        try TestImages.comic(pages: [TestImages.solid(TestImages.red)], to: path)
        let loader = Self.loader()
        let cover = await loader.cover(of: Self.entry(path, identity: "sha256:marked", protection: .lcp))
        #expect(cover == .none("Protected: no cover shown"))
        #expect(Self.files(in: loader.directory).isEmpty)
    }

    @Test(arguments: ["garbage", "truncated", "empty", "oversized", "huge"])
    func aDamagedCacheFileIsIgnoredAndRewritten(damage: String) async throws {
        let path = Fixtures.temporaryDirectory("cover-damaged") + "/comic.cbz"
        try TestImages.comic(pages: [TestImages.solid(TestImages.yellow)], to: path)
        let loader = Self.loader()
        let identity = "sha256:damaged"
        let file = try #require(CoverThumbnailCache.path(identity: identity, in: loader.directory))
        let valid = CoverThumbnailCache.encode(.picture(Bitmap(width: 2, height: 2, stride: 6, layout: .rgb, pixels: [UInt8](repeating: 0, count: 12))))
        let bytes: [UInt8] = switch damage {
        case "garbage": Array("not a cover at all\n1 1 3\nxyz".utf8)
        case "truncated": Array(valid.dropLast(5))
        case "empty": []
        case "huge": Array("lectern-cover-1\n256 384 4\n".utf8) + [UInt8](repeating: 7, count: 4 << 20)
        default: Array("lectern-cover-1\n100000 100000 4\n".utf8)
        }
        try FileManager.default.createDirectory(atPath: loader.directory, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(CoverThumbnailCache.read(identity: identity, in: loader.directory) == nil, "the damaged file is not a cover")
        let cover = await loader.cover(of: Self.entry(path, identity: identity))
        #expect(Self.middle(cover).map { $0.0 > 200 && $0.1 > 200 && $0.2 < 60 } == true, "yellow, from the book")
        #expect(CoverThumbnailCache.read(identity: identity, in: loader.directory) == cover, "rewritten")
    }
}

/// Where the cover panel and the covers view go in windows of several sizes.
@Suite struct ShelfCoverLayoutTests {
    @Test func thePanelNeedsAWideWindowAndLeavesTheListItsRoom() throws {
        #expect(ShelfPanelLayout(rows: 30, columns: 119) == nil)
        #expect(ShelfPanelLayout(rows: 11, columns: 200) == nil)
        let panel = try #require(ShelfPanelLayout(rows: 30, columns: 120))
        #expect(panel.listWidth == 90 && panel.width == 30)
        #expect(panel.picture == Rect(row: 2, column: 92, width: 27, height: 23))
        let wide = try #require(ShelfPanelLayout(rows: 50, columns: 400))
        #expect(wide.width == 60 && wide.listWidth == 340, "the panel stops growing")
    }

    @Test func theCoversViewScrollsToTheSelection() throws {
        #expect(ShelfGridLayout(rows: 14, columns: 120) == nil, "not one row of tiles")
        let grid = try #require(ShelfGridLayout(rows: 30, columns: 120))
        #expect(grid.perRow == 6 && grid.visibleRows == 2)
        #expect(grid.picture(of: 7, top: 0) == Rect(row: 14, column: 19, width: 16, height: 10))
        #expect(grid.scrolled(top: 0, selection: 11) == 0)
        #expect(grid.scrolled(top: 0, selection: 12) == 1, "the third row of tiles: one row down")
        #expect(grid.scrolled(top: 3, selection: 5) == 0, "back up to the first row")
        #expect(grid.visibleItems(top: 1, count: 15) == 6..<15)
        #expect(grid.picture(of: 7, top: 1) == Rect(row: 2, column: 19, width: 16, height: 10))
    }
}
