import Foundation
import Shared
import Testing
import TestSupport

/// A publication folder with files, sub-folders and symlinks pointing in and out of it:
///
///     root/secret.txt                    SECRET (outside the publication)
///     root/book2/secret.txt              SIBLING-SECRET (a sibling whose name extends "book")
///     root/book/a.txt                    A
///     root/book/sub/b.html               <p>B</p>
///     root/book/sub/content 001.xhtml    C
///     root/book/xhtml/一.xhtml            ICHI
///     root/book/deep/x/y/z.css           Z
///     root/book/link-in -> sub/b.html
///     root/book/link-out -> ../secret.txt
///     root/book/link-sibling -> ../book2/secret.txt
///     root/book/outdir -> ..   (the whole root)
///     root/book/dangling -> nowhere
private struct PublicationFolder {
    let root = Fixtures.temporaryDirectory("file-fetcher")
    var book: String { root + "/book" }

    init() throws {
        try writeFile(root + "/secret.txt", "SECRET")
        try writeFile(root + "/book2/secret.txt", "SIBLING-SECRET")
        try writeFile(root + "/book/a.txt", "A")
        try writeFile(root + "/book/sub/b.html", "<p>B</p>")
        try writeFile(root + "/book/sub/content 001.xhtml", "C")
        try writeFile(root + "/book/xhtml/一.xhtml", "ICHI")
        try writeFile(root + "/book/deep/x/y/z.css", "Z")
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: book + "/link-in", withDestinationPath: "sub/b.html")
        try manager.createSymbolicLink(atPath: book + "/link-out", withDestinationPath: "../secret.txt")
        try manager.createSymbolicLink(atPath: book + "/link-sibling", withDestinationPath: "../book2/secret.txt")
        try manager.createSymbolicLink(atPath: book + "/outdir", withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: book + "/dangling", withDestinationPath: "nowhere")
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }
}

@Suite struct FileFetcherTests {
    @Test func servesFilesAndSubPaths() throws {
        let folder = try PublicationFolder()
        defer { folder.remove() }
        let fetcher = FileFetcher(href: "", path: folder.book)
        #expect(fetcher.get(href: "a.txt").read().text == "A")
        #expect(fetcher.get(href: "sub/b.html").read().text == "<p>B</p>")
        #expect(fetcher.get(href: "deep/x/y/z.css").read(range: 0..<1).text == "Z")
        #expect(fetcher.get(href: "sub/content%20001.xhtml").read().text == "C")
        #expect(fetcher.get(href: "xhtml/%E4%B8%80.xhtml").read().text == "ICHI")
        #expect(fetcher.get(href: "sub/b.html#frag").read().text == "<p>B</p>")
        #expect(fetcher.get(href: "sub/./x/../b.html").read().text == "<p>B</p>")
        // A symlink that stays inside is followed.
        #expect(fetcher.get(href: "link-in").read().text == "<p>B</p>")
        #expect(fetcher.get(href: "missing.txt").read().error?.isNotFound == true)
        #expect(fetcher.get(href: "sub").read().error?.isNotFound == true)
        #expect(fetcher.get(href: "dangling").read().error?.isNotFound == true)
    }

    @Test func mediaTypesComeFromTheExtensionUnlessGiven() throws {
        let folder = try PublicationFolder()
        defer { folder.remove() }
        let fetcher = FileFetcher(href: "", path: folder.book)
        #expect(fetcher.get(href: "sub/b.html").link.mediaType == .html)
        #expect(fetcher.get(href: "deep/x/y/z.css").link.mediaType == .css)
        let given = fetcher.get(Link(href: "a.txt", mediaType: .json))
        #expect(given.link.mediaType == .json)
    }

    @Test(arguments: [
        "../secret.txt", "../../secret.txt", "/../secret.txt", "..%2Fsecret.txt", "%2E%2E/secret.txt",
        "sub/../../secret.txt", "sub/..%2F..%2Fsecret.txt", "/etc/passwd", "../../../../../../etc/passwd",
        "file:///etc/passwd", "file://" + "/tmp", "https://example.com/secret.txt", "../book2/secret.txt",
        "..\\secret.txt",
    ])
    func traversalNeverReachesOutside(href: String) throws {
        let folder = try PublicationFolder()
        defer { folder.remove() }
        let fetcher = FileFetcher(href: "", path: folder.book)
        let result = fetcher.get(Link(href: href)).read()
        let error = try #require(result.error, "\(href) must not be readable")
        #expect(error.isNotFound || error.isForbidden)
    }

    @Test(arguments: ["link-out", "outdir/secret.txt", "link-sibling", "outdir/book2/secret.txt"])
    func symlinksLeadingOutsideAreForbidden(href: String) throws {
        let folder = try PublicationFolder()
        defer { folder.remove() }
        let fetcher = FileFetcher(href: "", path: folder.book)
        let resource = fetcher.get(href: href)
        #expect(resource.read().error?.isForbidden == true)
        #expect(resource.read(range: 0..<3).error?.isForbidden == true)
        #expect(resource.length.failure?.isForbidden == true)
    }

    @Test func linksAreSortedAndStayInside() throws {
        let folder = try PublicationFolder()
        defer { folder.remove() }
        let fetcher = FileFetcher(href: "", path: folder.book)
        let hrefs = fetcher.links.map(\.href)
        #expect(hrefs == ["a.txt", "deep/x/y/z.css", "link-in", "sub/b.html", "sub/content%20001.xhtml", "xhtml/%E4%B8%80.xhtml"])
        #expect(fetcher.links.first { $0.href == "sub/b.html" }?.mediaType == .html)
        // Every listed link can be read.
        for link in fetcher.links {
            #expect(fetcher.get(link).read().value != nil, "\(link.href)")
        }
    }

    @Test func prefixesAndSeveralRoots() throws {
        let folder = try PublicationFolder()
        defer { folder.remove() }
        let fetcher = FileFetcher(paths: ["pub": folder.book, "extra/secret file.txt": folder.root + "/secret.txt"])
        #expect(fetcher.get(href: "pub/a.txt").read().text == "A")
        #expect(fetcher.get(href: "/pub/sub/b.html").read().text == "<p>B</p>")
        #expect(fetcher.get(href: "a.txt").read().error?.isNotFound == true)
        #expect(fetcher.get(href: "pubx/a.txt").read().error?.isNotFound == true)
        #expect(fetcher.get(href: "pub/../extra/secret%20file.txt").read().text == "SECRET")
        #expect(fetcher.get(href: "extra/secret%20file.txt").read().text == "SECRET")
        #expect(fetcher.get(href: "pub/../secret.txt").read().error?.isNotFound == true)
        let hrefs = fetcher.links.map(\.href)
        #expect(hrefs.contains("extra/secret%20file.txt"))
        #expect(hrefs.contains("pub/sub/b.html"))
        #expect(!hrefs.contains { $0.contains("book2") || $0.hasPrefix("pub/link-out") })
    }

    @Test func symlinkedRootIsAllowed() throws {
        let folder = try PublicationFolder()
        defer { folder.remove() }
        let alias = folder.root + "/alias"
        try FileManager.default.createSymbolicLink(atPath: alias, withDestinationPath: "book")
        let fetcher = FileFetcher(href: "", path: alias)
        #expect(fetcher.get(href: "a.txt").read().text == "A")
        #expect(fetcher.get(href: "link-out").read().error?.isForbidden == true)
    }

    @Test func specialFilesAreNeverOpened() throws {
        // Opening a FIFO for reading blocks until a writer comes: it must be refused instead.
        let folder = try PublicationFolder()
        defer { folder.remove() }
        #expect(mkfifo(folder.book + "/pipe.xhtml", 0o600) == 0)
        let fetcher = FileFetcher(href: "", path: folder.book)
        #expect(!fetcher.links.contains { $0.href == "pipe.xhtml" })
        let resource = fetcher.get(href: "pipe.xhtml")
        #expect(resource.read().error?.isNotFound == true)
        #expect(resource.length.failure?.isNotFound == true)
        #expect(FileResource(link: Link(href: "p"), path: folder.book + "/pipe.xhtml").read().error?.isNotFound == true)
    }

    @Test func mediaTypeNeedsARealExtension() throws {
        let folder = try PublicationFolder()
        defer { folder.remove() }
        try writeFile(folder.book + "/css", "not a style sheet")
        try writeFile(folder.book + "/dir.epub/README", "readme")
        let fetcher = FileFetcher(href: "", path: folder.book)
        #expect(fetcher.get(href: "css").link.mediaType == nil)
        #expect(fetcher.get(href: "dir.epub/README").link.mediaType == nil)
        #expect(fetcher.links.first { $0.href == "css" }?.mediaType == nil)
        #expect(fetcher.links.first { $0.href == "dir.epub/README" }?.mediaType == nil)
    }

    @Test func missingRoot() {
        let fetcher = FileFetcher(href: "", path: "/nonexistent/lectern-root")
        #expect(fetcher.links.isEmpty)
        #expect(fetcher.get(href: "a.txt").read().error?.isNotFound == true)
    }
}
