import Foundation
import Shared
import Testing
import TestSupport

private let manifestSamples = [
    "webpub/swifttoolkit-webpub.json",
    "webpub/swifttoolkit-divina.json",
    "webpub/swifttoolkit-opds2-publication.json",
    "audiobook/readium-flatland-librivox.audiobook-manifest.json",
    "audiobook-drm/feedbooks_0.json",
    "audiobook-drm/feedbooks_1.json",
    "audiobook-drm/feedbooks_2.json",
    "audiobook-drm/feedbooks_3.json",
    "audiobook-drm/feedbooks_rights_ok.json",
    "audiobook-drm/feedbooks_rights_no_start.json",
    "audiobook-drm/feedbooks_rights_no_end.json",
    "format-sniffing/audiobook.json",
    "format-sniffing/audiobook-wrongtype.json",
]

private func manifest(_ sample: String, warnings: (any WarningLogger)? = nil) throws -> Manifest {
    try Manifest(data: Fixtures.bytes(Fixtures.sample(sample)), warnings: warnings)
}

/// Every object found under `value` that has an `href` (link objects), in document order.
private func linkObjects(_ value: JSONValue) -> [JSONObject] {
    switch value {
    case .object(let object):
        let here = object["href"] != nil ? [object] : []
        return here + object.members.flatMap { linkObjects($0.value) }
    case .array(let elements):
        return elements.flatMap(linkObjects)
    default:
        return []
    }
}

@Suite struct ManifestTests {
    @Test(arguments: manifestSamples)
    func parseSerialiseParseGivesTheSameManifest(sample: String) throws {
        let first = try manifest(sample)
        let serialised = JSONWriter().bytes(first.json)
        let second = try Manifest(data: serialised)
        #expect(second == first)
        #expect(JSONWriter().bytes(second.json) == serialised)
        let pretty = JSONWriter(style: .pretty).bytes(first.json)
        #expect(try Manifest(data: pretty) == first)
    }

    @Test(arguments: manifestSamples)
    func everyMemberOfTheSourceSurvivesARoundTrip(sample: String) throws {
        let raw = try JSONParser.parse(Fixtures.bytes(Fixtures.sample(sample)))
        let written = try manifest(sample).json
        let rawObject = try #require(raw.object), writtenObject = try #require(written.object)

        // Top level: `spine` becomes `readingOrder`; everything else keeps its name.
        for key in rawObject.keys {
            #expect(writtenObject[key == "spine" ? "readingOrder" : key] != nil, "top-level \(key) of \(sample)")
        }
        // Metadata: every member, modelled or not.
        let rawMetadata = try #require(rawObject["metadata"]?.object)
        let writtenMetadata = try #require(writtenObject["metadata"]?.object)
        for member in rawMetadata.members where member.value != .null {
            #expect(writtenMetadata[member.key] != nil, "metadata.\(member.key) of \(sample)")
        }
        // Unmodelled metadata is kept exactly (signatures, rights, accessibility…).
        for member in rawMetadata.members where member.key.hasPrefix("http") || member.key.contains(":") {
            #expect(writtenMetadata[member.key] == member.value, "metadata.\(member.key) of \(sample)")
        }
        // Links: same number, and every non-null member of each, unknown ones included.
        for key in rawObject.keys where key != "metadata" {
            let rawLinks = linkObjects(rawObject[key]!)
            let writtenLinks = linkObjects(writtenObject[key == "spine" ? "readingOrder" : key] ?? .null)
            #expect(rawLinks.count == writtenLinks.count, "links of \(key) in \(sample)")
            for (rawLink, writtenLink) in zip(rawLinks, writtenLinks) {
                for member in rawLink.members where member.value != .null && member.value != .object(JSONObject()) {
                    #expect(writtenLink[member.key] != nil, "\(member.key) of link \(rawLink["href"]?.string ?? "?") in \(sample)")
                }
            }
        }
    }

    @Test func flatlandAudiobook() throws {
        let warnings = ListWarningLogger()
        let manifest = try manifest("audiobook/readium-flatland-librivox.audiobook-manifest.json", warnings: warnings)
        #expect(warnings.warnings.isEmpty)
        #expect(manifest.context == ["https://readium.org/webpub-manifest/context.jsonld"])
        let metadata = manifest.metadata
        #expect(metadata.type == "http://schema.org/Audiobook")
        #expect(manifest.conforms(to: Manifest.Profile.audiobook))
        #expect(metadata.title == "Flatland")
        #expect(metadata.subtitle == "A Romance of Many Dimensions")
        #expect(metadata.authors.map(\.name) == ["Edwin Abbott Abbott"])
        #expect(metadata.authors.first?.localizedSortAs?.string == "Abbott, Abbott Edwin")
        #expect(metadata.narrators.map(\.name) == ["Ruth Golding"])
        #expect(metadata.publishers.map(\.name) == ["Librivox"])
        #expect(metadata.subjects.map(\.name) == ["General Fiction", "Satire", "Science Fiction"])
        #expect(metadata.languages == ["en"])
        #expect(metadata.published == "2008-10-12")
        #expect(metadata.modified == "2016-08-11T19:32:18Z")
        #expect(metadata.duration == 15153)
        #expect(metadata.otherMetadata["abridged"] == .bool(false))
        #expect(metadata.otherMetadata["schema:license"] == .string("https://creativecommons.org/publicdomain/zero/1.0/"))
        #expect(metadata.effectiveReadingProgression == .ltr)

        #expect(manifest.readingOrder.count == 9)
        let first = try #require(manifest.readingOrder.first)
        #expect(first.href == "http://www.archive.org/download/flatland_rg_librivox/flatland_1_abbott.mp3")
        #expect(first.mediaType == .mp3)
        #expect(first.bitrate == 128)
        #expect(first.duration == 1371)
        #expect(first.title == "Part 1, Sections 1 - 3")
        #expect(manifest.links.first(withRel: "cover")?.width == 300)
        #expect(manifest.links.filter(byRel: "alternate").count == 3)
        #expect(manifest.links.first(withRel: "self")?.mediaType == .readiumAudiobookManifest)
        #expect(manifest.tableOfContents.first?.children.count ?? 0 >= 3)
        #expect(manifest.tableOfContents.first?.href.hasSuffix("flatland_1_abbott.mp3#t=71") == true)
        // A toc href with a fragment designates a reading order item.
        #expect(manifest.readingOrder.firstIndex(withHREF: manifest.tableOfContents[0].children[0].href) == 0)
    }

    @Test func webpubManifest() throws {
        let manifest = try manifest("webpub/swifttoolkit-webpub.json")
        #expect(manifest.metadata.title == "Moby-Dick")
        #expect(manifest.metadata.authors.map(\.name) == ["Herman Melville"])
        #expect(manifest.readingOrder.map(\.href) == ["https://example.com/c001.html", "https://example.com/c002.html"])
        let search = try #require(manifest.links.first(withRel: "search"))
        #expect(search.templated)
        #expect(search.href == "https://example.com/search{?query}")
        #expect(search.expanded(with: ["query": "white whale"]).href == "https://example.com/search?query=white%20whale")
        #expect(manifest.link(withRel: "cover")?.height == 600)
        #expect(manifest.link(withHREF: "https://example.com/boat.svg")?.mediaType == .svg)
    }

    @Test func divinaManifest() throws {
        let manifest = try manifest("webpub/swifttoolkit-divina.json")
        let metadata = manifest.metadata
        #expect(metadata.authors.map(\.name) == ["Hergé"])
        #expect(metadata.numberOfPages == 62)
        #expect(metadata.readingProgression == .ltr)
        let series = try #require(metadata.belongsTo["series"]?.first)
        #expect(series.name == "Les Aventures de Tintin")
        #expect(series.position == 16)
        #expect(manifest.readingOrder.first?.properties.page == "center")
        #expect(manifest.readingOrder.dropFirst().first?.properties.page == "left")
    }

    @Test func legacySpineAndNullPropertiesAndUnknownLinkMembers() throws {
        let warnings = ListWarningLogger()
        let manifest = try manifest("audiobook-drm/feedbooks_1.json", warnings: warnings)
        #expect(warnings.warnings.contains { $0.message.contains("spine") })
        let raw = try JSONParser.parse(Fixtures.bytes(Fixtures.sample("audiobook-drm/feedbooks_1.json")))
        let spine = try #require(raw["spine"]?.array)
        #expect(manifest.readingOrder.count == spine.count)
        let first = try #require(manifest.readingOrder.first)
        #expect(first.properties.isEmpty) // "properties": null
        #expect(first.mediaType == .m4a)
        #expect(first.duration == 567)
        // The non-standard `alternates` member is kept as it was.
        #expect(first.json["alternates"] == spine[0]["alternates"])
        #expect(manifest.metadata.otherMetadata["http://www.feedbooks.com/audiobooks/signature"]
            == raw["metadata"]?["http://www.feedbooks.com/audiobooks/signature"])
        #expect(manifest.metadata.otherMetadata["http://www.feedbooks.com/audiobooks/rights"]
            == raw["metadata"]?["http://www.feedbooks.com/audiobooks/rights"])
    }

    @Test func encryptedPropertiesAndStringBitrate() throws {
        let manifest = try manifest("audiobook-drm/feedbooks_0.json")
        let track = try #require(manifest.readingOrder.first)
        #expect(track.bitrate == 120) // written "120", a string
        // RWPM requires `algorithm` in an Encryption object: this access restriction has none,
        // so it is no Encryption, but it stays readable in the properties.
        #expect(track.encryption == nil)
        #expect(track.properties["encrypted"]?["scheme"] == .string("http://www.feedbooks.com/audiobooks/access-restriction"))
        #expect(track.properties["encrypted"]?["profile"] == .string("https://www.cantookaudio.com"))
        #expect(manifest.links.first(withRel: "license")?.mediaType == .lcpStatusDocument)
    }

    @Test func relAsStringOrArrayAndOtherTolerances() throws {
        let json = """
        {"metadata": {"title": {"en": "T", "fr": "Titre"}, "author": ["A", {"name": "B", "role": ["aut", "ill"]}, {"noname": 1}],
                      "language": ["fr", "en"], "numberOfPages": -3, "duration": -1, "published": 1851,
                      "readingProgression": "sideways", "belongsTo": {"collection": "Classics"}},
         "links": [{"href": "a", "rel": ["self", "alternate"]}, {"href": "b", "rel": "cover"}, {"rel": "no-href"}, 42],
         "readingOrder": [{"href": "c1.html", "type": "text/html", "height": 0, "width": "x", "templated": "yes"},
                          {"href": "c2.html", "type": "not a media type", "children": [{"href": "c2.html#s1"}]}],
         "landmarks": [{"href": "c1.html", "title": "Start"}],
         "pageList": {"metadata": {"title": "Pages"}, "links": [{"href": "c1.html#p1"}]},
         "x-unknown": 5, "x-strings": ["a", "b"], "x-object": {"k": [1]}}
        """
        let warnings = ListWarningLogger()
        let manifest = try Manifest(data: Array(json.utf8), warnings: warnings)
        #expect(manifest.links.count == 2)
        #expect(manifest.links[0].rels == ["self", "alternate"])
        #expect(manifest.links[1].rels == ["cover"])
        #expect(manifest.links[0].json["rel"] == .array([.string("self"), .string("alternate")]))
        #expect(manifest.links[1].json["rel"] == .string("cover"))
        #expect(warnings.warnings.contains { $0.message.contains("no href") })
        #expect(manifest.metadata.title == "T")
        #expect(manifest.metadata.authors.map(\.name) == ["A", "B"])
        #expect(manifest.metadata.authors[1].roles == ["aut", "ill"])
        #expect(manifest.metadata.languages == ["fr", "en"])
        #expect(manifest.metadata.numberOfPages == nil)
        #expect(manifest.metadata.duration == nil)
        #expect(manifest.metadata.published == "1851")
        #expect(manifest.metadata.readingProgression == .auto)
        #expect(manifest.metadata.belongsTo["collection"]?.map(\.name) == ["Classics"])
        let c1 = manifest.readingOrder[0]
        #expect(c1.height == nil && c1.width == nil && !c1.templated)
        #expect(manifest.readingOrder[1].mediaType == nil)
        #expect(manifest.readingOrder.first(withHREF: "c2.html#s1")?.href == "c2.html")
        #expect(manifest.subcollectionLinks("landmarks").map(\.title) == ["Start"])
        #expect(manifest.subcollections["pageList"]?.first?.metadata["title"] == .string("Pages"))
        #expect(manifest.json["x-unknown"] == .number("5"))
        #expect(manifest.json["x-strings"] == .array([.string("a"), .string("b")]))
        #expect(manifest.json["x-object"] == .object(JSONObject(["k": .array([.number("1")])])))
        #expect(manifest.subcollections["x-strings"] == nil)
        #expect(try Manifest(json: manifest.json) == manifest)
    }

    @Test func relativeHrefsResolveAgainstTheBase() throws {
        let json = #"{"metadata": {"title": "t"}, "links": [{"rel": "self", "href": "https://example.com/books/m.json"}],"#
            + #""readingOrder": [{"href": "audio/1.mp3"}, {"href": "../x.mp3"}, {"href": "https://cdn.example/2.mp3"}]}"#
        let remote = try Manifest(data: Array(json.utf8))
        #expect(remote.readingOrder.map(\.href) == [
            "https://example.com/books/audio/1.mp3", "https://example.com/x.mp3", "https://cdn.example/2.mp3",
        ])
        let packaged = try Manifest(data: Array(json.utf8), base: "manifest.json")
        #expect(packaged.readingOrder.map(\.href) == ["audio/1.mp3", "x.mp3", "https://cdn.example/2.mp3"])
    }

    @Test func packagedWebPubResolvesAgainstItsPackage() throws {
        let fetcher = try ArchiveFetcher(path: Fixtures.sample("webpub/readium-mobydick.webpub"))
        defer { fetcher.close() }
        let bytes = try fetcher.get(href: "manifest.json").read().get()
        let manifest = try Manifest(data: bytes, base: "manifest.json")
        #expect(manifest.metadata.title == "Moby-Dick")
        #expect(manifest.metadata.otherMetadata["accessibility"]?["feature"] == .array([.string("displayTransformability")]))
        #expect(manifest.readingOrder.count == 10)
        #expect(manifest.readingOrder.first?.href == "index.html")
        // Every reading order item and resource is in the package, and reads.
        for link in manifest.readingOrder + manifest.resources {
            #expect(fetcher.get(link).read().value?.isEmpty == false, "\(link.href)")
        }
        #expect(manifest.link(withRel: "contents")?.href == "html/toc.html")
        // The self link is absolute and stays so; the font type is kept as written.
        #expect(manifest.links.first(withRel: "self")?.href == "https://readium.org/webpub-manifest/examples/MobyDick/manifest.json")
        #expect(manifest.resources.first { $0.href.hasSuffix(".otf") }?.mediaType == MediaType("application/vnd.ms-opentype"))
        #expect(try Manifest(json: manifest.json, base: "manifest.json") == manifest)
    }

    @Test func invalidManifests() throws {
        #expect(throws: ManifestError.self) { try Manifest(data: Array("[]".utf8)) }
        #expect(throws: ManifestError.self) { try Manifest(data: Array(#"{"readingOrder": []}"#.utf8)) }
        #expect(throws: ManifestError.self) { try Manifest(data: Array(#"{"metadata": "x"}"#.utf8)) }
        #expect(throws: ManifestError.self) { try Manifest(data: Array(#"{"metadata": {}"#.utf8)) }
        #expect(throws: ManifestError.self) { try Manifest(data: Fixtures.bytes(Fixtures.sample("audiobook-drm/jwks_2.json"))) }
        do {
            _ = try Manifest(data: Array(#"{"metadata": {},}"#.utf8))
            Issue.record("a trailing comma must be refused")
        } catch {
            #expect(String(describing: error).contains("byte 16"))
        }
        let warnings = ListWarningLogger()
        let empty = try Manifest(data: Array(#"{"metadata": {}}"#.utf8), warnings: warnings)
        #expect(empty.readingOrder.isEmpty)
        #expect(warnings.warnings.contains { $0.severity == .major })
    }
}

@Suite struct LocatorTests {
    @Test func jsonRoundTrip() throws {
        let locator = Locator(
            href: "OEBPS/c1.xhtml", mediaType: .xhtml, title: "Chapitre 1 — « début »",
            locations: Locator.Locations(fragments: ["p12", "t=3"], progression: 0.25, totalProgression: 0.031,
                                         position: 7, otherLocations: JSONObject(["cssSelector": .string("#p12 > span")])),
            text: Locator.Text(before: "avant ", highlight: "mot", after: " après\n"))
        let string = locator.jsonString
        #expect(Locator(jsonString: string) == locator)
        let object = try #require(try JSONParser.parse(string).object)
        #expect(object["type"] == .string("application/xhtml+xml"))
        #expect(object["locations"]?["cssSelector"] == .string("#p12 > span"))
        #expect(object["locations"]?["progression"] == .number("0.25"))
    }

    @Test func minimalLocatorAndTolerances() throws {
        let minimal = Locator(href: "a.html", mediaType: nil)
        #expect(Locator(jsonString: minimal.jsonString) == minimal)
        let odd = try #require(Locator(jsonString: #"{"href":"a","type":"text/html","locations":{"progression":1.5,"position":0,"fragment":"x"}}"#))
        #expect(odd.locations.progression == nil)
        #expect(odd.locations.position == nil)
        #expect(odd.locations.fragments == ["x"])
        #expect(Locator(jsonString: #"{"type":"text/html"}"#) == nil)
        #expect(Locator(jsonString: "not json") == nil)
        #expect(Locator(jsonString: "[]") == nil)
    }
}
