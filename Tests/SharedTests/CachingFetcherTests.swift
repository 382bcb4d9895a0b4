import Foundation
import Shared
import Testing
import TestSupport

private func bodies(_ count: Int, size: Int) -> [Data] {
    (0..<count).map { index in Data(repeating: UInt8(ascii: "a") + UInt8(index), count: size) }
}

/// The `.body` files of a cache directory.
private func cachedBodies(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".body") }
}

@Suite(.serialized) final class CachingFetcherTests {
    let directory = Fixtures.temporaryDirectory("http-cache")

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    @Test func secondReadIsServedWithTheServerStopped() throws {
        let server = try TestHTTPServer(routes: [
            TestHTTPRoute("/track.mp3", headers: ["Content-Type": "audio/mpeg"], text: "ID3 pretend audio"),
        ])
        defer { server.stop() }
        let fetcher = CachingFetcher(HTTPFetcher(timeout: 2), directory: directory)
        let link = Link(href: server.url("/track.mp3"))
        #expect(fetcher.get(link).read().text == "ID3 pretend audio")
        server.stop()
        // The network is gone: a fresh resource reads from the disk cache.
        let again = fetcher.get(link)
        #expect(again.read().text == "ID3 pretend audio")
        #expect(again.read(range: 4..<11).text == "pretend")
        #expect(again.length.value == 17)
        #expect(again.link.mediaType == .mp3)
        // Something never read is not there.
        #expect(fetcher.get(Link(href: server.url("/other.mp3"))).read().error?.isUnavailable == true)
    }

    @Test func cacheFilesArePrivate() throws {
        let server = try TestHTTPServer(routes: [TestHTTPRoute("/a", headers: ["Content-Type": "text/plain"], text: "A")])
        defer { server.stop() }
        let fetcher = CachingFetcher(HTTPFetcher(timeout: 2), directory: directory + "/nested/http")
        #expect(fetcher.get(Link(href: server.url("/a"))).read().text == "A")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory + "/nested/http")
        #expect(names.count == 2) // body and type
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory + "/nested/http/" + name)
            #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o777 } == 0o600, "\(name)")
        }
        let folder = try FileManager.default.attributesOfItem(atPath: directory + "/nested/http")
        #expect((folder[.posixPermissions] as? Int).map { $0 & 0o077 } == 0)
    }

    @Test func boundedSizeEvictsTheLeastRecentlyUsed() throws {
        let content = bodies(4, size: 100)
        let server = try TestHTTPServer(routes: (0..<4).map { TestHTTPRoute("/\($0)", body: content[$0]) })
        defer { server.stop() }
        let fetcher = CachingFetcher(HTTPFetcher(timeout: 2), directory: directory, maxSize: 250)
        func read(_ index: Int) -> Data? { fetcher.get(Link(href: server.url("/\(index)"))).read().value }
        #expect(read(0) == content[0])
        #expect(read(1) == content[1])
        #expect(read(0) == content[0]) // 0 is now more recent than 1
        #expect(read(2) == content[2]) // over the bound: 1 goes
        #expect(cachedBodies(directory).count == 2)
        #expect(read(0) == content[0])
        #expect(read(3) == content[3]) // 2 goes
        server.stop()
        #expect(read(0) == content[0])
        #expect(read(3) == content[3])
        #expect(read(1) == nil)
        #expect(read(2) == nil)
    }

    @Test func entriesLargerThanTheBoundAreNotStored() throws {
        let server = try TestHTTPServer(routes: [TestHTTPRoute("/big", body: Data(count: 1000))])
        defer { server.stop() }
        let fetcher = CachingFetcher(HTTPFetcher(timeout: 2), directory: directory, maxSize: 500)
        #expect(fetcher.get(Link(href: server.url("/big"))).read().value?.count == 1000)
        #expect(cachedBodies(directory).isEmpty)
    }

    @Test func localHrefsAreNotCached() throws {
        let child = SpyFetcher("local", ["a.txt": "A"])
        let fetcher = CachingFetcher(child, directory: directory)
        #expect(fetcher.get(href: "a.txt").read().text == "A")
        #expect(fetcher.get(href: "a.txt").read().text == "A")
        #expect(child.resources.map(\.reads.count) == [1, 1])
        #expect(!FileManager.default.fileExists(atPath: directory) || cachedBodies(directory).isEmpty)
        #expect(fetcher.links.map(\.href) == ["a.txt"])
        fetcher.close()
        #expect(child.closes.count == 1)
    }

    @Test func failuresAndRangedReadsAreNotStored() throws {
        let server = try TestHTTPServer(routes: [
            TestHTTPRoute("/missing", status: 404, text: "no"),
            TestHTTPRoute("/ranged", text: "0123456789"),
        ])
        defer { server.stop() }
        let fetcher = CachingFetcher(HTTPFetcher(timeout: 2), directory: directory)
        #expect(fetcher.get(Link(href: server.url("/missing"))).read().error?.isNotFound == true)
        #expect(fetcher.get(Link(href: server.url("/ranged"))).read(range: 2..<4).text == "23")
        #expect(cachedBodies(directory).isEmpty)
    }

    @Test func parametersAreAPartOfTheKey() throws {
        let server = try TestHTTPServer(routes: [TestHTTPRoute("/echo", behaviour: .echo)])
        defer { server.stop() }
        let fetcher = CachingFetcher(HTTPFetcher(timeout: 2), directory: directory)
        let link = Link(href: server.url("/echo"))
        let one = fetcher.get(link, parameters: ["q": "1"]).read().text ?? ""
        let two = fetcher.get(link, parameters: ["q": "2"]).read().text ?? ""
        #expect(one.contains("q=1") && two.contains("q=2"))
        server.stop()
        #expect(fetcher.get(link, parameters: ["q": "1"]).read().text == one)
        #expect(fetcher.get(link, parameters: ["q": "2"]).read().text == two)
    }

    @Test func defaultDirectoryFollowsXDGCacheHome() throws {
        let previous = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
        setenv("XDG_CACHE_HOME", directory + "/xdg", 1)
        defer {
            if let previous { setenv("XDG_CACHE_HOME", previous, 1) } else { unsetenv("XDG_CACHE_HOME") }
        }
        #expect(XDGDirectories.cache == directory + "/xdg/lectern")
        let fetcher = CachingFetcher(EmptyFetcher())
        #expect(fetcher.directory == directory + "/xdg/lectern/http")
        // A relative value is invalid and ignored (XDG Base Directory specification).
        setenv("XDG_CACHE_HOME", "relative/cache", 1)
        #expect(XDGDirectories.cache.hasPrefix("/"))
        #expect(XDGDirectories.cache.hasSuffix("/.cache/lectern"))
    }
}
