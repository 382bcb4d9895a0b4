import Foundation
import Shared
import Testing
import TestSupport

private let digits = Data("0123456789".utf8)

@Suite struct BytesResourceTests {
    @Test func readsWholeAndRanges() throws {
        let resource = BytesResource(link: Link(href: "a.txt"), bytes: digits)
        #expect(resource.length.value == 10)
        #expect(resource.read().text == "0123456789")
        #expect(resource.read(range: 2..<5).text == "234")
        #expect(resource.read(range: 0..<0).text == "")
        // Ranges are clamped to the content.
        #expect(resource.read(range: 8..<100).text == "89")
        #expect(resource.read(range: 10..<20).text == "")
        #expect(resource.read(range: 50..<60).text == "")
        #expect(resource.link.href == "a.txt")
    }

    @Test func rangedReadsAreIndexedFromZero() throws {
        let resource = BytesResource(link: Link(href: "a"), bytes: digits)
        let slice = try resource.read(range: 4..<7).get()
        // Callers index what they get: a slice that kept the parent's indices would trap here.
        #expect(slice.startIndex == 0)
        #expect(slice[0] == UInt8(ascii: "4"))
        #expect(Array(slice) == Array("456".utf8))
        let fromData = Data("abcdef".utf8).dropFirst(2).slice(1..<3)
        #expect(fromData.startIndex == 0)
        #expect(fromData[0] == UInt8(ascii: "d"))
    }

    @Test func producerRunsOnceAndItsFailureIsReported() {
        let calls = Counter()
        let resource = BytesResource(link: Link(href: "a")) {
            calls.increment()
            return .success(digits)
        }
        #expect(calls.count == 0)
        #expect(resource.read(range: 1..<2).text == "1")
        #expect(resource.length.value == 10)
        #expect(resource.read().text == "0123456789")
        #expect(calls.count == 1)

        let failing = BytesResource(link: Link(href: "b")) { .failure(.forbidden(nil)) }
        #expect(failing.read().error?.isForbidden == true)
        #expect(failing.length.failure?.isForbidden == true)
    }

    @Test func stringResource() throws {
        let resource = StringResource(link: Link(href: "s"), string: "héllo")
        #expect(resource.length.value == 6)
        #expect(resource.read(range: 1..<3).text == "é")
        let lazy = StringResource(link: Link(href: "s")) { .success("lazy") }
        #expect(lazy.readAsString().value == ("lazy"))
        let failing = StringResource(link: Link(href: "s")) { .failure(.notFound(nil)) }
        #expect(failing.read().error?.isNotFound == true)
    }

    @Test func failureResource() {
        let resource = FailureResource(link: Link(href: "x"), error: .unavailable(nil))
        #expect(resource.read().error?.isUnavailable == true)
        #expect(resource.read(range: 0..<1).error?.isUnavailable == true)
        #expect(resource.length.failure?.isUnavailable == true)
        #expect(resource.readAsString().failure?.isUnavailable == true)
        #expect(resource.readAsJSON().failure?.isUnavailable == true)
        resource.close()
    }

    @Test func readAsJSON() throws {
        let good = StringResource(link: Link(href: "a.json"), string: #"{"a":[1]}"#)
        #expect(try good.readAsJSON().get()["a"] == .array([.number("1")]))
        let bad = StringResource(link: Link(href: "a.json"), string: #"{"a":"#)
        let error = try #require(bad.readAsJSON().failure)
        #expect(error.isOther)
        #expect(error.description.contains("byte"))
    }

    @Test func errorsMirrorHTTPStatuses() {
        #expect(ResourceError.notFound().httpStatus == 404)
        #expect(ResourceError.forbidden().httpStatus == 403)
        #expect(ResourceError.unavailable().httpStatus == 503)
        #expect(ResourceError.other(ResourceFailure("x")).httpStatus == 500)
        #expect(ResourceError.notFound("a.html").description == "not found (a.html)")
        #expect(ResourceError.other(ResourceFailure("boom")).description == "boom")
    }
}

@Suite struct ReadAsStringTests {
    private func resource(_ bytes: [UInt8], type: String? = nil) -> BytesResource {
        BytesResource(link: Link(href: "t", mediaType: type.flatMap(MediaType.init)), bytes: Data(bytes))
    }

    @Test func utf8ByDefault() {
        #expect(resource(Array("héllo 😀".utf8)).readAsString().value == ("héllo 😀"))
        #expect(resource(Array("héllo".utf8), type: "text/html").readAsString().value == ("héllo"))
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        #expect(resource([0x61, 0xFF, 0x62, 0xC3]).readAsString().value == ("a\u{FFFD}b\u{FFFD}"))
    }

    @Test func byteOrderMarks() {
        #expect(resource([0xEF, 0xBB, 0xBF] + Array("abc".utf8)).readAsString().value == ("abc"))
        #expect(resource([0xFF, 0xFE, 0x61, 0x00, 0xE9, 0x00, 0x3D, 0xD8, 0x00, 0xDE]).readAsString().value == ("aé😀"))
        #expect(resource([0xFE, 0xFF, 0x00, 0x61, 0x00, 0xE9]).readAsString().value == ("aé"))
        // A mark wins over the declared charset.
        #expect(resource([0xEF, 0xBB, 0xBF, 0xC3, 0xA9], type: "text/plain;charset=windows-1252").readAsString().value == ("é"))
        #expect(resource([0xFF, 0xFE, 0x61, 0x00], type: "text/plain;charset=utf-8").readAsString().value == ("a"))
    }

    @Test func charsetFromTheLinkType() {
        #expect(resource([0x93, 0x80, 0x94, 0xE9, 0x9F], type: "text/plain;charset=windows-1252").readAsString().value
            == ("“€”éŸ"))
        #expect(resource([0x93, 0xE9], type: "text/plain; charset=cp1252").readAsString().value == ("“é"))
        #expect(resource([0xE9, 0x93], type: "text/html;charset=ISO-8859-1").readAsString().value == ("é\u{93}"))
        #expect(resource([0xE9], type: "text/html;charset=latin1").readAsString().value == ("é"))
        #expect(resource([0x00, 0x61, 0x00, 0xE9], type: "text/plain;charset=utf-16be").readAsString().value == ("aé"))
        #expect(resource([0x61, 0x00, 0xE9, 0x00], type: "text/plain;charset=UTF-16LE").readAsString().value == ("aé"))
        // Without a mark, UTF-16 is big-endian (RFC 2781).
        #expect(resource([0x00, 0x61], type: "text/plain;charset=utf-16").readAsString().value == ("a"))
        // Unknown charsets fall back to UTF-8.
        #expect(resource(Array("é".utf8), type: "text/plain;charset=x-klingon").readAsString().value == ("é"))
    }

    @Test func explicitEncodingWinsOverTheLink() {
        let latin = resource([0xE9], type: "text/plain;charset=utf-8")
        #expect(latin.readAsString(encoding: .isoLatin1).value == ("é"))
        #expect(latin.readAsString(encoding: .windows1252).value == ("é"))
    }

    @Test func malformedUTF16() {
        // A lone surrogate and an odd trailing byte become U+FFFD.
        #expect(resource([0xFF, 0xFE, 0x3D, 0xD8, 0x61, 0x00]).readAsString().value == ("\u{FFFD}a"))
        #expect(resource([0xFE, 0xFF, 0x00, 0x61, 0x00]).readAsString().value == ("a\u{FFFD}"))
    }

    @Test func textEncodingNames() {
        #expect(TextEncoding(charset: "utf-8") == .utf8)
        #expect(TextEncoding(charset: "UTF8") == .utf8)
        #expect(TextEncoding(charset: "windows-1252") == .windows1252)
        #expect(TextEncoding(charset: "iso-8859-1") == .isoLatin1)
        #expect(TextEncoding(charset: "us-ascii") == .ascii)
        #expect(TextEncoding(charset: "koi8-r") == nil)
    }
}

@Suite struct WrappingResourceTests {
    @Test func lazyResourceCreatesOnFirstUseOnly() {
        let created = Counter()
        let inner = SpyResource("content")
        let lazy = LazyResource(link: Link(href: "l")) {
            created.increment()
            return inner
        }
        #expect(created.count == 0)
        #expect(lazy.link.href == "l")
        #expect(lazy.read(range: 0..<4).text == "cont")
        #expect(lazy.length.value == 7)
        #expect(created.count == 1)
        lazy.close()
        #expect(inner.closes.count == 1)
    }

    @Test func lazyResourceClosedUnusedCreatesNothing() {
        let created = Counter()
        let lazy = LazyResource(link: Link(href: "l")) {
            created.increment()
            return SpyResource("x")
        }
        lazy.close()
        #expect(created.count == 0)
    }

    @Test func transformingResourceTransformsOnceAndSlicesTheResult() {
        let inner = SpyResource("abcdef")
        let transforms = Counter()
        let upper = TransformingResource(inner) { data in
            transforms.increment()
            return .success(Data(String(decoding: data, as: UTF8.self).uppercased().utf8) + Data("!".utf8))
        }
        #expect(upper.read(range: 1..<3).text == "BC")
        #expect(upper.read().text == "ABCDEF!")
        #expect(upper.length.value == 7)
        #expect(upper.read(range: 5..<100).text == "F!")
        #expect(transforms.count == 1)
        #expect(inner.reads.count == 1)
        #expect(inner.requestedRanges == [nil])
        #expect(upper.link.href == "spy")
        upper.close()
        #expect(inner.closes.count == 1)
        // After closing, the content is transformed again on demand.
        #expect(upper.read().text == "ABCDEF!")
        #expect(transforms.count == 2)
    }

    @Test func transformingResourceReportsFailuresAndOverridesTheLink() {
        let failing = TransformingResource(SpyResource("x"), link: Link(href: "decrypted.html")) { _ in
            .failure(.other(ResourceFailure("bad padding")))
        }
        #expect(failing.link.href == "decrypted.html")
        #expect(failing.read().error?.description == "bad padding")
        #expect(failing.read(range: 0..<1).error?.isOther == true)
        let missing = TransformingResource(FailureResource(link: Link(href: "m"), error: .notFound(nil))) { .success($0) }
        #expect(missing.read().error?.isNotFound == true)
    }

    @Test func temporaryFailuresAreNotCachedForever() {
        // A resource that is unavailable (offline) the first time and then comes back.
        let attempts = Counter()
        final class Flaky: Resource {
            let link = Link(href: "flaky")
            let attempts: Counter
            init(_ attempts: Counter) { self.attempts = attempts }
            var length: ResourceResult<UInt64> { read().map { UInt64($0.count) } }
            func read(range: Range<UInt64>?) -> ResourceResult<Data> {
                attempts.increment()
                return attempts.count == 1 ? .failure(.unavailable(nil)) : .success(Data("back".utf8).slice(range))
            }
            func close() {}
        }
        let caching = CachingResource(Flaky(attempts))
        #expect(caching.read().error?.isUnavailable == true)
        #expect(caching.read().text == "back")
        #expect(caching.read(range: 1..<3).text == "ac")
        #expect(attempts.count == 2)
    }

    @Test func cachingResourceReadsItsChildOnce() {
        let inner = SpyResource("0123456789")
        let caching = CachingResource(inner)
        #expect(caching.read(range: 3..<5).text == "34")
        #expect(caching.read(range: 0..<2).text == "01")
        #expect(caching.read().text == "0123456789")
        #expect(inner.reads.count == 1)
        caching.close()
        #expect(inner.closes.count == 1)
    }

    /// A wrapper that changes nothing: everything reaches the wrapped resource.
    final class Unchanged: ForwardingResource {
        let resource: any Resource
        init(_ resource: any Resource) { self.resource = resource }
    }

    @Test func aForwardingResourceForwardsWhatItDoesNotChange() {
        let inner = SpyResource("abc")
        let proxy = Unchanged(inner)
        #expect(proxy.read(range: 1..<2).text == "b")
        #expect(proxy.link.href == "spy")
        proxy.close()
        #expect(inner.closes.count == 1)
    }
}

@Suite struct FileResourceTests {
    @Test func readsWholeRangesAndClamps() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(directory + "/d.txt", "0123456789")
        let resource = FileResource(link: Link(href: "d.txt"), path: directory + "/d.txt")
        #expect(resource.length.value == 10)
        #expect(resource.read().text == "0123456789")
        #expect(resource.read(range: 2..<5).text == "234")
        #expect(resource.read(range: 8..<1000).text == "89")
        #expect(resource.read(range: 1000..<2000).text == "")
        #expect(resource.read(range: 3..<3).text == "")
        let slice = try resource.read(range: 5..<7).get()
        #expect(slice.startIndex == 0 && slice[0] == UInt8(ascii: "5"))
        resource.close()
        // Reading after close reopens the file.
        #expect(resource.read(range: 0..<1).text == "0")
        resource.close()
    }

    @Test func largeFileRanges() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes = Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 11) })
        try writeFile(directory + "/big.bin", bytes)
        let resource = FileResource(link: Link(href: "big.bin"), path: directory + "/big.bin")
        #expect(resource.read().value == bytes)
        #expect(resource.read(range: 1_234_567..<2_500_000).value == bytes[1_234_567..<2_500_000])
    }

    @Test func missingFileIsNotFound() {
        let resource = FileResource(link: Link(href: "nope"), path: "/nonexistent/lectern/nope.txt")
        #expect(resource.read().error?.isNotFound == true)
        #expect(resource.length.failure?.isNotFound == true)
        #expect(resource.read(range: 0..<1).error?.isNotFound == true)
        let throughFile = FileResource(link: Link(href: "x"), path: "/etc/hostname/child")
        #expect(throughFile.read().error?.isNotFound == true)
    }

    @Test func directoryIsNotAFile() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let resource = FileResource(link: Link(href: "dir"), path: directory)
        #expect(resource.read().error?.isNotFound == true)
        #expect(resource.length.failure?.isNotFound == true)
    }

    @Test func charsetOfTheLinkApplies() throws {
        let directory = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try writeFile(directory + "/w.txt", Data([0x93, 0x41, 0x94]))
        let resource = FileResource(link: Link(href: "w.txt", mediaType: MediaType("text/plain;charset=windows-1252")),
                                    path: directory + "/w.txt")
        #expect(resource.readAsString().value == ("“A”"))
    }
}
