// swift-tools-version:6.0
// Lectern — a terminal reader for open and protected publications, on the Readium architecture.
import PackageDescription

/// A system library target for one C library, found through pkg-config.
func cModule(_ name: String, pkgConfig: String, apt: String) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt([apt])])
}

let package = Package(
    name: "Lectern",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "lectern", targets: ["lectern"]),
        .library(name: "Shared", targets: ["Shared"]),
        .library(name: "Streamer", targets: ["Streamer"]),
        .library(name: "LCP", targets: ["LCP"]),
        .library(name: "LCPSQLite", targets: ["LCPSQLite"]),
        .library(name: "AudiobookDRM", targets: ["AudiobookDRM"]),
        // Feeds hostile bytes to every parser; used by the fuzzers of Fuzz/ and by FuzzRegressionTests.
        .library(name: "HostileInputHarness", targets: ["HostileInputHarness"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The publication server's HTTP (SwiftNIO underneath); no hand-written HTTP parsing.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // C libraries, each behind a thin Swift layer of its own.
        cModule("CLecternXML2", pkgConfig: "libxml-2.0", apt: "libxml2-dev"),
        cModule("CLecternZlib", pkgConfig: "zlib", apt: "zlib1g-dev"),
        // libcrypto and libzip are loaded on first use (dlopen, #28): no pkg-config, whose -l
        // flags would link them (libzip needs libcrypto) into every process again.
        .systemLibrary(name: "CLecternCrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLecternZip", providers: [.apt(["libzip-dev"])]),
        // libcurl is loaded at run time (dlopen), only its headers are needed to build.
        .systemLibrary(name: "CLecternCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        cModule("CLecternSQLite", pkgConfig: "sqlite3", apt: "libsqlite3-dev"),
        cModule("CLecternFriBidi", pkgConfig: "fribidi", apt: "libfribidi-dev"),
        // No pkg-config: its -D flags are refused by SwiftPM (a warning on every build); the
        // shim defines what the wide-character API needs and the module map links the library.
        .systemLibrary(name: "CLecternCurses", providers: [.apt(["libncurses-dev"])]),
        // poppler-glib is loaded at run time (dlopen) too; its shim declares the ABI it uses.
        .systemLibrary(name: "CLecternPoppler", providers: [.apt(["libpoppler-glib-dev"])]),
        // libmpv (audio decoding and output) is loaded at run time (dlopen), like libcurl.
        .systemLibrary(name: "CLecternMPV", providers: [.apt(["libmpv-dev"])]),
        // gdk-pixbuf (image decoding) and libchafa (terminal pictures), loaded at run time too.
        .systemLibrary(name: "CLecternPictures", providers: [.apt(["libchafa-dev", "libgdk-pixbuf-2.0-dev"])]),
        // libarchive: comic books in RAR, 7z and tar archives (#34). Loaded at run time (dlopen)
        // like djvulibre (#28): linked, it put nettle, acl, lzma, zstd, lz4 and bz2 in every process.
        .systemLibrary(name: "CLecternArchive", providers: [.apt(["libarchive-dev"])]),
        // libmobi: Mobipocket and Kindle (AZW3/KF8) books (#34); loaded at run time (dlopen, #28).
        .systemLibrary(name: "CLecternMobi", providers: [.apt(["libmobi-dev"])]),
        // djvulibre: DjVu documents (#34); its headers are in /usr/include/libdjvu. Loaded at run
        // time (dlopen) like poppler-glib: linked, it put libdjvulibre and libjpeg in every process.
        .systemLibrary(name: "CLecternDjVu", providers: [.apt(["libdjvulibre-dev"])]),
        // libspeechd (speech-dispatcher's client) is loaded at run time (dlopen), only its headers are needed to build.
        .systemLibrary(name: "CLecternSpeechd", providers: [.apt(["libspeechd-dev"])]),
        // cmark-gfm: Markdown documents (#34); loaded at run time (dlopen, #28).
        .systemLibrary(name: "CLecternCMark", providers: [.apt(["libcmark-gfm-dev"])]),
        .target(name: "LibXML", dependencies: ["CLecternXML2"]),
        .target(name: "LibArchive", dependencies: ["CLecternArchive"]),
        .target(name: "LibDjVu", dependencies: ["CLecternDjVu"]),
        .target(name: "LibMobi", dependencies: ["CLecternMobi", "CLecternXMLCleanupGuard"]),
        // Keeps libmobi from tearing down libxml2 while other threads parse (xml_cleanup_guard.c).
        .target(name: "CLecternXMLCleanupGuard"),
        .target(name: "LibCMark", dependencies: ["CLecternCMark"]),
        .target(name: "Zlib", dependencies: ["CLecternZlib"]),
        .target(name: "LibCrypto", dependencies: ["CLecternCrypto"]),
        .target(name: "LibZip", dependencies: ["CLecternZip", "CLecternZlib"]),
        .target(name: "LibCurl", dependencies: ["CLecternCurl"]),
        .target(name: "LibSQLite", dependencies: ["CLecternSQLite"]),
        .target(name: "LibPoppler", dependencies: ["CLecternPoppler"]),
        .target(name: "LibMPV", dependencies: ["CLecternMPV"]),
        // libespeak-ng (text-to-speech), loaded at run time (dlopen) like libmpv; headers only to build.
        .systemLibrary(name: "CLecternEspeak", providers: [.apt(["libespeak-ng-dev"])]),
        .target(name: "LibEspeak", dependencies: ["CLecternEspeak"]),

        // The Readium layers.
        .target(name: "Shared", dependencies: ["LibZip", "LibCurl", "LibCrypto", "LibXML", .product(name: "Logging", package: "swift-log")]),
        .target(name: "Streamer", dependencies: ["Shared", "LibArchive", "LibMobi", "LibDjVu", "LibXML", "LibCrypto", "Zlib", "LibZip", "LibPoppler", "LibCMark"]),
        // Readium LCP sits beside the Streamer (it depends on Shared alone), plugged in as a third-party ContentProtection.
        .target(name: "LCP", dependencies: ["Shared", "LibCrypto", "Zlib", "LibZip", .product(name: "Logging", package: "swift-log")]),
        .target(name: "LCPSQLite", dependencies: ["LCP", "Shared", "LibSQLite"]),
        // Signed Feedbooks/DPLA audiobook manifests, another third-party ContentProtection.
        .target(name: "AudiobookDRM", dependencies: ["Shared", "LibCrypto"]),
        // Listening: the audiobook player over a publication's reading order (libmpv behind a seam).
        .target(name: "AudioPlayback", dependencies: ["Shared", "LibMPV", .product(name: "Logging", package: "swift-log")]),
        // Read-aloud of EPUB 3 Media Overlays: the book's phrases on one clock, played through AudioPlayback.
        .target(name: "ReadAloud", dependencies: ["AudioPlayback", "Streamer", "TextLayout", "Shared"]),
        // Reading aloud: sentences by language, synthesis (espeak-ng) and the speaking pipeline.
        .target(name: "Speech", dependencies: ["LibEspeak", "LibMPV", "Shared", "TextLayout", "CLecternSpeechd"]),

        // Text layout for the terminal: XHTML to styled blocks to lines of cells (no ncurses).
        .target(name: "TextLayout", dependencies: ["Shared", "LibXML", "CLecternFriBidi", "TerminalCells"],
                exclude: ["Unicode/generate_diacritic_table.py"]),
        // How many terminal cells a character takes (Lectern's own Unicode table, not wcwidth):
        // shared by the layout and the screen, which knows nothing else of the layout.
        .target(name: "TerminalCells", exclude: ["generate_cell_width_table.py"]),

        // Pictures for the terminal: images decoded in memory, drawn as sixel, kitty, iTerm2 or
        // coloured symbols in text cells.
        .target(name: "Pictures", dependencies: ["Shared", "CLecternPictures"]),

        // The terminal front end: ncurses behind `Terminal`, the library database, the screens.
        .target(name: "Terminal", dependencies: ["CLecternCurses", "TerminalCells"]),
        .target(name: "Bookshelf", dependencies: ["Shared", "LibSQLite", "LibCrypto", "Annotations"]),
        // Highlights and notes: the model, its anchors and the formats readers exchange them in.
        .target(name: "Annotations", dependencies: ["Shared"]),
        // The reader's config.toml, themes and key map, pure (no screen): shared by ReaderUI and the hostile-input harness.
        .target(name: "ReaderSettings", dependencies: ["Terminal", "Shared", "TextLayout", "Pictures", "Annotations"]),
        // Read-aloud in the reader (ReaderUI/ReadAloud): overlays and speech, their C libraries loaded on first use.
        .target(name: "ReaderUI", dependencies: ["ReaderSettings", "Terminal", "TerminalCells", "Bookshelf", "Annotations", "Shared", "TextLayout", "LibrarySearch", "Pictures", "OPDS",
                                                 "AudioPlayback", "ReadAloud", "Speech"]),
        // Library-wide full-text search: the indexer over the library's publications (SQLite FTS5).
        .target(name: "LibrarySearch", dependencies: ["Bookshelf", "TextLayout", "Shared"]),
        // KOReader progress sync (kosync): document ids, the protocol's client, the offline queue.
        .target(name: "ProgressSync", dependencies: ["Shared", "LibCrypto", "Bookshelf", "TextLayout"]),

        // The commit the program was built from (a define the Makefile's release build passes).
        .target(name: "CLecternBuildInfo"),

        // Serves opened publications over loopback HTTP (manifest, resources through the Fetcher,
        // the content-protection routes) to a browser; knows nothing of the terminal.
        .target(name: "PublicationServer", dependencies: [
            "Shared", .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
        ]),

        // OPDS 1.2 (Atom) and 2.0 (JSON) catalogs, in one model.
        .target(name: "OPDS", dependencies: ["Shared", "LibXML"]),

        // The command line.
        .target(name: "LecternCLI", dependencies: [
            "CLecternBuildInfo",
            "Shared", "Streamer", "LibCrypto", "TextLayout", "LCP", "LCPSQLite", "AudiobookDRM", "AudioPlayback", "Speech", "ReadAloud",
            "Bookshelf", "ReaderUI", "Terminal", "LibrarySearch", "PublicationServer", "OPDS", "Pictures", "ProgressSync", "Annotations",
            .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Logging", package: "swift-log"),
        ]),
        // Linked with lld, relative relocations packed (DT_RELR, glibc 2.36) and only the symbols
        // the loader needs exported: the dynamic linker then reads about 4 MB less of the binary at
        // start (peak memory to a book's first page, issue #15), and the binary stays position
        // independent.
        .executableTarget(name: "lectern", dependencies: ["LecternCLI"],
                          linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                                         "-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))]),

        // One "consume these bytes" function per kind of untrusted input (the fuzz targets).
        .target(name: "HostileInputHarness", dependencies: [
            "Shared", "Streamer", "LCP", "LibCrypto", "AudiobookDRM", "LibZip", "LibArchive", "LibPoppler", "TextLayout", "ReaderSettings",
            "OPDS", "PublicationServer", "Annotations", "LibDjVu",
        ]),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .target(name: "AudioTestSupport", dependencies: ["AudioPlayback"], path: "Tests/AudioTestSupport"),
        .testTarget(name: "CLibraryTests", dependencies: ["LibXML", "Zlib", "LibCrypto", "LibZip", "LibCurl", "LibSQLite", "TestSupport"]),
        .testTarget(name: "SharedTests", dependencies: ["Shared", "LibZip", "TestSupport"]),
        .testTarget(name: "StreamerTests", dependencies: ["Streamer", "LibArchive", "LibPoppler", "TestSupport"]),
        .testTarget(name: "PublicationServerTests", dependencies: ["PublicationServer", "Shared", "LibCrypto", "Zlib", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["TestSupport", "TextLayout", "TerminalCells", "Streamer"]),
        .testTarget(name: "TextLayoutTests", dependencies: ["TextLayout", "TerminalCells", "Shared", "Streamer", "TestSupport"]),
        .testTarget(name: "AnnotationsTests", dependencies: ["Annotations", "Shared", "TestSupport"]),
        .testTarget(name: "BookshelfTests", dependencies: ["Bookshelf", "Annotations", "Shared", "TestSupport"]),
        .testTarget(name: "LibrarySearchTests", dependencies: ["LibrarySearch", "Bookshelf", "Streamer", "Shared", "LibSQLite", "TestSupport"]),
        .testTarget(name: "LibraryDatabaseTests", dependencies: ["Annotations", "Bookshelf", "LibrarySearch", "LCP", "LCPSQLite", "LibSQLite", "Streamer", "Shared", "TestSupport"]),
        .testTarget(name: "ReaderUITests", dependencies: ["ReaderUI", "ReaderSettings", "Bookshelf", "OPDS", "Terminal", "TerminalCells", "TextLayout", "Shared", "Streamer", "TestSupport", "ReadAloud", "Speech"]),
        .testTarget(name: "UITests", dependencies: ["TestSupport"]),
        .testTarget(name: "LCPTests", dependencies: ["LCP", "LCPSQLite", "Streamer", "Shared", "LibCrypto", "LibZip", "ReaderUI", "Terminal", "Bookshelf", "TestSupport"]),
        .testTarget(name: "AudioPlaybackTests", dependencies: ["AudioPlayback", "AudioTestSupport", "Streamer", "Shared", "TestSupport"]),
        .testTarget(name: "ReadAloudTests", dependencies: ["ReadAloud", "AudioPlayback", "AudioTestSupport", "Streamer", "TextLayout", "Shared", "TestSupport"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "LibEspeak", "TextLayout", "Streamer", "Shared", "TestSupport"]),
        .testTarget(name: "AudiobookDRMTests", dependencies: ["AudiobookDRM", "Streamer", "Shared", "LibCrypto", "TestSupport"]),
        .testTarget(name: "PicturesTests", dependencies: ["Pictures", "Shared", "Streamer", "TestSupport"]),
        .testTarget(name: "ProgressSyncTests", dependencies: ["ProgressSync", "Bookshelf", "Shared", "Streamer", "LibCrypto", "TestSupport"]),
        .testTarget(name: "OPDSTests", dependencies: ["OPDS", "Shared", "TestSupport"]),
        // Replays the inputs the fuzzers found (Tests/Fixtures/fuzz/<target>/) and a few seeds.
        .testTarget(name: "FuzzRegressionTests", dependencies: [
            "HostileInputHarness", "LibZip", "OPDS", "LCP", "PublicationServer", "TestSupport",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
