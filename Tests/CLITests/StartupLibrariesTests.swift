import Foundation
import Testing
import TestSupport

/// The C libraries of formats a session may never open are loaded on first use (dlopen), not
/// at start (#28): `lectern --version` must not map them. Read from the dynamic loader's own
/// account (`LD_DEBUG=files` names every object it loads, and who needed it).
@Suite struct StartupLibrariesTests {
    /// Libraries that only some documents need; none of them belongs in a plain start-up.
    static let loadedOnFirstUse = ["libdjvulibre", "libjpeg", "libpoppler", "libcairo", "libmpv", "libchafa", "libgdk_pixbuf",
                                   "libmobi", "libcmark-gfm", "libarchive", "libnettle", "libzstd", "liblz4", "libacl"]
    /// Libraries of ZIP archives and cryptography: an EPUB, a license or a digest loads them,
    /// a start that reads no book does not (libzip brought libcrypto, 1.5 MB resident, and libbz2).
    static let loadedForBooks = ["libzip", "libcrypto", "libssl", "libbz2"]

    @Test func versionLoadsNoFormatLibrary() throws {
        let run = try LecternProcess().run(["--version"], environment: ["LD_DEBUG": "files"])
        #expect(run.status == 0, "\(run.stderr)")
        let loaded = Self.loadedObjects(run.stderr)
        #expect(!loaded.isEmpty, "LD_DEBUG printed nothing: \(run.stderr.prefix(500))")
        for library in Self.loadedOnFirstUse + Self.loadedForBooks {
            #expect(!loaded.contains { $0.contains(library) }, "\(library) is loaded at start: \(loaded)")
        }
    }

    /// Listing the library reads its database and no book: no ZIP or cryptography library.
    @Test func listingTheLibraryLoadsNoZIPOrCryptoLibrary() throws {
        let lectern = LecternProcess()
        #expect(try lectern.run(["import", Fixtures.sample("epub/idpf-wasteland.epub")]).status == 0)
        let run = try lectern.run(["list"], environment: ["LD_DEBUG": "files"])
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        #expect(run.stdout.contains("Waste Land"), "\(run.stdout)")
        let loaded = Self.loadedObjects(run.stderr)
        for library in Self.loadedOnFirstUse + Self.loadedForBooks {
            #expect(!loaded.contains { $0.contains(library) }, "\(library) is loaded by list: \(loaded)")
        }
    }

    /// An EPUB's first page needs none of them either.
    @Test func anEPUBsFirstPageLoadsNoOtherFormatsLibrary() throws {
        let run = try LecternProcess().run(["render", Fixtures.sample("epub/idpf-wasteland.epub"), "--width", "70", "--page", "1"],
                                           environment: ["LD_DEBUG": "files"])
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        let loaded = Self.loadedObjects(run.stderr)
        for library in Self.loadedOnFirstUse {
            #expect(!loaded.contains { $0.contains(library) }, "\(library) is loaded for an EPUB: \(loaded)")
        }
    }

    /// A MOBI book loads libmobi, a Markdown document cmark-gfm and its extensions, a CBR
    /// libarchive, an EPUB libzip (and with it libcrypto).
    @Test(arguments: [("libmobi-samples/sample-cp1252.mobi", ["libmobi"]),
                      ("Samples/epub/idpf-wasteland.epub", ["libzip", "libcrypto"]),
                      ("rar-comics/testfile.rar5.cbr", ["libarchive"]),
                      ("notes.md", ["libcmark-gfm.", "libcmark-gfm-extensions"])])
    func aDocumentLoadsItsFormatsLibraryWhenOpened(name: String, libraries: [String]) throws {
        var path = Fixtures.path(name)
        if name.hasSuffix(".md") {
            path = Fixtures.temporaryDirectory("markdown-startup") + "/" + name
            try "# Notes\n\nA | table\n--|--\n~~struck~~ | www.example.com\n".write(toFile: path, atomically: true, encoding: .utf8)
        }
        let run = try LecternProcess().run(["info", "--json", path], environment: ["LD_DEBUG": "files"])
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        let loaded = Self.loadedObjects(run.stderr)
        for library in libraries {
            #expect(loaded.contains { $0.contains(library) }, "\(library) not loaded for \(name): \(loaded)")
        }
    }

    @Test func aDjVuDocumentLoadsDjVuLibreWhenOpened() throws {
        let path = try DjVuFixtures.book(in: Fixtures.temporaryDirectory("djvu-startup"))
        let run = try LecternProcess().run(["text", path], environment: ["LD_DEBUG": "files"])
        #expect(run.status == 0, "\(run.stderr.suffix(2000))")
        #expect(Self.loadedObjects(run.stderr).contains { $0.contains("libdjvulibre") })
    }

    /// djvulibre's shim calls it through a table of function pointers: each must have the
    /// type of the function it is loaded from, as the installed headers declare it.
    /// So are libmobi's, cmark-gfm's and libarchive's shims; libzip's and libcrypto's tables take
    /// their types from the headers (__typeof__), and their wrappers must agree with them.
    @Test(arguments: [("CLecternDjVu", "DJVU"), ("CLecternMobi", "MOBI"), ("CLecternCMark", "CMARK"), ("CLecternArchive", "ARCHIVE"),
                      ("CLecternZip", "ZIP"), ("CLecternCrypto", "CRYPTO")])
    func theShimMatchesTheInstalledHeaders(module: String, prefix: String) throws {
        let shim = Fixtures.repositoryRoot + "/Sources/\(module)/shim.h"
        let script = """
            compiler=$(command -v cc || command -v clang || command -v gcc) || { echo "no C compiler"; exit 2; }
            "$compiler" -fsyntax-only -Werror -DLECTERN_$1_ABI_CHECK -x c "$0" 2>&1 || echo "error: the check failed"
            """
        let output = try ZipBuilder.run("/bin/sh", ["-c", script, shim, prefix])
        #expect(!output.contains("error"), "\(output)")
    }

    /// The objects named in `LD_DEBUG=files` output ("file=libfoo.so.1 [0];  needed by …").
    static func loadedObjects(_ log: String) -> [String] {
        log.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            let rest = line[start.upperBound...]
            return String(rest.prefix { $0 != " " && $0 != "[" && $0 != ";" })
        }
    }
}
