import Foundation
@testable import LCP
import Shared
import Testing
import TestSupport

/// Reads of a megabyte or more of a stored CBC resource, decrypted chunk by chunk straight
/// into their buffer: the same bytes as the block-by-block path, never the padding.
@Suite struct LargeReadTests {
    static let size = 3 * 1_048_576 + 37

    func publication(_ plaintext: Data, damage: ((inout [UInt8]) -> Void)? = nil) async throws -> Publication {
        let forged = try LicenseForge.make(LicenseSpec())
        var track = ForgedResource("audio/track.mp3", plaintext, mediaType: "audio/mpeg")
        track.damage = damage
        let path = Fixtures.temporaryDirectory("lcp-large") + "/book.lcpa"
        try PackageForge.readiumPackage(at: path, license: forged, conformsTo: "https://readium.org/webpub-manifest/profiles/audiobook",
                                        readingOrder: [track])
        return try await TestLCP().open(path, credentials: "open sesame")
    }

    @Test func largeReadsMatchThePlaintext() async throws {
        let plaintext = Data(LicenseForge.randomBytes(Self.size))
        let publication = try await publication(plaintext)
        defer { publication.close() }
        let resource = publication.get("audio/track.mp3")
        #expect(try resource.length.get() == UInt64(Self.size))
        #expect(try resource.read().get() == plaintext)
        let size = UInt64(Self.size)
        for range: Range<UInt64> in [0..<1_048_576, 1_000_003..<2_500_007, (size - 1_100_000)..<size, 17..<(size + 500),
                                     (size - 1_048_576 - 5)..<(size - 5)] {
            let clamped = range.clamped(toLength: size)
            let data = try resource.read(range: range).get()
            #expect(data == plaintext.subdata(in: Int(clamped.lowerBound)..<Int(clamped.upperBound)), "\(range)")
            // The small-range path agrees on the edges.
            let head = try resource.read(range: clamped.lowerBound..<(clamped.lowerBound + 100)).get()
            #expect(head == data.prefix(100))
        }
    }

    /// A block-aligned plaintext ends with a whole block of padding, never returned.
    @Test func aBlockAlignedResourceEndsBeforeItsPaddingBlock() async throws {
        let plaintext = Data(LicenseForge.randomBytes(2 * 1_048_576))
        let publication = try await publication(plaintext)
        defer { publication.close() }
        let resource = publication.get("audio/track.mp3")
        #expect(try resource.read().get() == plaintext)
        #expect(try resource.read(range: 1_000_000..<3_000_000).get() == plaintext.subdata(in: 1_000_000..<2_097_152))
    }

    @Test func aTruncatedLargeResourceFailsClearly() async throws {
        let plaintext = Data(LicenseForge.randomBytes(Self.size))
        // Cut in the middle, on a block boundary: the length still looks encrypted.
        let publication = try await publication(plaintext) { $0.removeSubrange(1_000_000..<1_000_160) }
        defer { publication.close() }
        let resource = publication.get("audio/track.mp3")
        let whole = resource.read()
        // The padding at the new end is garbage (or, by chance, a valid length): either the
        // size or the content tells.
        if case .success(let data) = whole { #expect(data != plaintext) }
    }
}
