import Foundation
import Bookshelf
@testable import ReaderSettings
@testable import ReaderUI
import Testing
import TestSupport

@Suite struct ReaderConfigTests {
    /// Choosing a theme rewrites the `theme` line only: other keys that start with "theme",
    /// comments and tables are kept as they were.
    @Test func savingTheThemeRewritesOnlyItsLine() throws {
        let path = Fixtures.temporaryDirectory("config") + "/config.toml"
        let original = """
            # theme = "commented"
            theme_dir = "/somewhere"
            theme = "light"
            justify = true

            [keys]
            theme = "T"
            """
        try Data(original.utf8).write(to: URL(fileURLWithPath: path))
        try ReaderConfig.saveTheme("dark", path: path)
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved == """
            # theme = "commented"
            theme_dir = "/somewhere"
            theme = "dark"
            justify = true

            [keys]
            theme = "T"

            """)
    }

    /// `[reader] bidi`: who orders right-to-left text; an unknown value warns and keeps Lectern.
    @Test func bidiModeIsRead() throws {
        let path = Fixtures.temporaryDirectory("config") + "/config.toml"
        #expect(ReaderConfig.load(path: path).bidi == .lectern)
        try Data("[reader]\nbidi = \"terminal\"\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(ReaderConfig.load(path: path).bidi == .terminal)
        try Data("[reader]\nbidi = \"mlterm\"\n".utf8).write(to: URL(fileURLWithPath: path))
        let config = ReaderConfig.load(path: path)
        #expect(config.bidi == .lectern)
        #expect(config.warnings == ["config.toml line 2: [reader] bidi: \"mlterm\" is not one of lectern, terminal"])
    }

    @Test func aConfigWithoutThemeGetsOneAtTheTop() throws {
        let path = Fixtures.temporaryDirectory("config") + "/config.toml"
        try Data("theme_dir = \"/x\"\n".utf8).write(to: URL(fileURLWithPath: path))
        try ReaderConfig.saveTheme("sepia", path: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theme = \"sepia\"\ntheme_dir = \"/x\"\n")
    }
}

@Suite struct BookTextCacheTests {
    /// A cached text file that is damaged, truncated or of another count is ignored (the book's
    /// text is then rebuilt), never half-read.
    @Test func aDamagedCacheFileIsIgnored() throws {
        let folder = Fixtures.temporaryDirectory("text-cache")
        BookTextCache.write(["first chapter\n", "second — ünïcode\n"], identity: "id:book#1", in: folder)
        #expect(BookTextCache.read(identity: "id:book#1", count: 2, in: folder) == ["first chapter\n", "second — ünïcode\n"])
        #expect(BookTextCache.read(identity: "id:book#1", count: 3, in: folder) == nil)
        let path = try #require(BookTextCache.path(identity: "id:book#1", in: folder))
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        for cut in [0, 5, whole.count / 2, whole.count - 1] {
            try whole.prefix(cut).write(to: URL(fileURLWithPath: path))
            #expect(BookTextCache.read(identity: "id:book#1", count: 2, in: folder) == nil, "cut at \(cut)")
        }
        try Data("lectern-text-1\n2\n999999999999\nx".utf8).write(to: URL(fileURLWithPath: path))
        #expect(BookTextCache.read(identity: "id:book#1", count: 2, in: folder) == nil)
        try Data("lectern-text-1\n2\n-5\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(BookTextCache.read(identity: "id:book#1", count: 2, in: folder) == nil)
        // A whole file whose table claims more bytes than the file holds, or a negative count.
        for (field, value) in [(8, Int64.max / 2), (8, -1), (16, 1 << 40), (0, Int64(whole.count))] {
            var bytes = [UInt8](whole)
            let tableOffset = bytes[(bytes.count - 16)..<(bytes.count - 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange((tableOffset + field)..<(tableOffset + field + 8), with: $0) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(BookTextCache.read(identity: "id:book#1", count: 2, in: folder) == nil, "table field \(field) = \(value)")
        }
    }
}
