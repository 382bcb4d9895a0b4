import Annotations
import FoundationEssentials
import Testing

/// Mutated files of every imported format, a bounded number of them from a fixed seed (the
/// same inputs on every run): each is read without a crash, fails only with an
/// ``AnnotationImportError``, and whatever is read survives every export and Lectern's JSON
/// round trip unchanged, and is anchored without a crash.
@Suite struct AnnotationFuzzTests {
    /// SplitMix64: small, and the same sequence everywhere.
    struct Generator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var value = state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }

        mutating func below(_ bound: Int) -> Int {
            Int(next() % UInt64(max(bound, 1)))
        }
    }

    static let tokens: [String] = [
        "{", "}", "[", "]", "\"", "\\", ",", ":", "=", "-", "--", "--[[", "]]", "[==[", "]==]", "\\u{1F600}", "\\u{110000}",
        "\\999", "\\x4", "\\z", "\\\n", "1e999", "-0", "0x", "nil", "null", "true", "NaN", "\u{1B}[2J", "\u{0}", "\u{202E}",
        "\"start\": -5", "\"end\": 99999999999999999999", "\"type\": \"TextPositionSelector\"", "[\"pos0\"] = ",
        "\"urn:uuid:\"", "\"format\": \"lectern-annotations\"", "\"type\": \"AnnotationSet\"", "\"items\": [", "return",
        "os.exit()", "\"2024-02-31T25:61:61Z\"", "\"9999-12-31T23:59:59.9999999+14:00\"", "é", "👩‍👩‍👧",
    ]

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let generated = Date(timeIntervalSince1970: 1_764_000_000)
        let publication = AnnotationSamples.publication()
        return [("export.json", Array(AnnotationExporter.export([publication], as: .json, generated: generated))),
                ("book.annotation", Array(AnnotationExporter.export([publication], as: .readium, generated: generated))),
                ("metadata.epub.lua", Array(KOReaderImportTests.epubMetadata.utf8))]
    }

    static func mutate(_ seed: [UInt8], _ random: inout Generator) -> [UInt8] {
        var bytes = seed
        for _ in 0...random.below(4) {
            let position = random.below(bytes.count + 1)
            switch random.below(6) {
            case 0 where !bytes.isEmpty:
                bytes[min(position, bytes.count - 1)] ^= UInt8(1 << random.below(8))
            case 1 where !bytes.isEmpty:
                let end = min(bytes.count, position + random.below(64))
                bytes.removeSubrange(min(position, end)..<end)
            case 2:
                let start = random.below(bytes.count + 1)
                let end = min(bytes.count, start + random.below(256))
                bytes.insert(contentsOf: bytes[start..<end], at: position)
            case 3:
                bytes = Array(bytes.prefix(position))
            default:
                bytes.insert(contentsOf: Array(tokens[random.below(tokens.count)].utf8), at: position)
            }
        }
        return bytes
    }

    @Test func mutatedFilesAreReadOrRefusedNeverACrash() throws {
        var random = Generator(state: 0x5EED_0031)
        let chapter = AnchoringText("It was the best of times, it was the worst of times, café de l'époque.")
        var read = 0, refused = 0
        for (name, seed) in Self.seeds() {
            for _ in 0..<1000 {
                let input = Self.mutate(seed, &random)
                let publications: [AnnotatedPublication]
                do {
                    publications = try AnnotationImporter.read(Data(input), fileName: name, timeZone: TimeZone(identifier: "UTC")!)
                } catch {
                    #expect(!error.message.isEmpty)
                    refused += 1
                    continue
                }
                read += 1
                for format in AnnotationExportFormat.allCases {
                    _ = AnnotationExporter.export(publications, as: format, generated: Date(timeIntervalSince1970: 0))
                }
                let lossless = publications.map { publication in
                    var copy = publication
                    copy.skipped = []
                    return copy
                }
                let json = AnnotationExporter.export(lossless, as: .json, generated: Date(timeIntervalSince1970: 0))
                let again = try AnnotationImporter.read(json, fileName: "again.json")
                #expect(again == lossless, "\(name): \(String(decoding: input, as: UTF8.self).prefix(300))")
                for annotation in publications.flatMap(\.annotations) {
                    _ = QuoteAnchoring.locate(annotation.target, in: chapter)
                }
            }
        }
        #expect(read > 100 && refused > 100, "read \(read), refused \(refused)")
    }
}
