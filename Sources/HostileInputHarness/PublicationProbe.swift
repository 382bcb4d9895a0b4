import FoundationEssentials
import Shared

/// Uses an opened publication as the commands do (`info`, `check`, the reader), so that what
/// a parser let through is also exercised downstream: every link of the manifest, the table of
/// contents at any depth, the manifest written back as JSON, and the first bytes of each
/// resource.
enum PublicationProbe {
    /// Resources read, at most, and bytes read of each: enough to run decryption or
    /// deobfuscation, not so much that one input takes seconds.
    static let maxResources = 16
    static let maxBytesPerResource: UInt64 = 64 << 10

    static func probe(_ publication: Publication) {
        let manifest = publication.manifest
        JSONRoundTrip.check(manifest.json, "the manifest")
        _ = manifest.metadata.title
        _ = manifest.metadata.effectiveReadingProgression
        var visited = 0
        func walk(_ links: [Link], depth: Int) {
            for link in links {
                visited += 1
                _ = link.path
                _ = link.mediaType?.isHTML
                walk(link.children, depth: depth + 1)
                walk(link.alternates, depth: depth + 1)
            }
        }
        walk(manifest.readingOrder + manifest.resources + manifest.links + manifest.tableOfContents, depth: 0)
        for link in (manifest.readingOrder + manifest.resources).prefix(maxResources) {
            let resource = publication.get(link)
            _ = resource.length
            _ = resource.read(range: 0..<maxBytesPerResource)
            resource.close()
        }
        publication.close()
    }
}

/// What ``JSONWriter`` writes must read back: a document Lectern writes (`--json`, the
/// canonical form a signature covers, caches) is never broken JSON, whatever it was made from.
enum JSONRoundTrip {
    static func check(_ value: JSONValue, _ what: @autoclosure () -> String) {
        for style in [JSONWriter.Style.compact, .canonical] {
            let bytes = JSONWriter(style: style).bytes(value)
            do {
                _ = try JSONParser.parse(bytes)
            } catch {
                HarnessInvariant.check(false, "\(what()) written as JSON (\(style)) does not parse: \(error); "
                    + String(decoding: bytes.prefix(200), as: UTF8.self))
            }
        }
    }
}
