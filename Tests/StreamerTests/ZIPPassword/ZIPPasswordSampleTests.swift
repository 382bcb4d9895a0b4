import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// The three password-protected samples (password "secret") against their clear originals.
@Suite struct ZIPPasswordSampleTests {
    static let samples: [(protected: String, original: String)] = [
        ("protected-zip/derived-wasteland-pkzip-secret.epub", "epub/idpf-wasteland.epub"),
        ("protected-zip/derived-wasteland-winzip-aes256-secret.epub", "epub/idpf-wasteland.epub"),
        ("protected-zip/derived-page-blanche-excerpt-pkzip-secret.cbz", "cbz/derived-page-blanche-excerpt.cbz"),
    ]

    @Test(arguments: samples.map(\.protected))
    func rightPasswordServesTheOriginalBytes(_ sample: String) async throws {
        let original = try await PasswordOpening.open(Fixtures.sample(Self.samples.first { $0.protected == sample }!.original))
        defer { original.close() }
        let publication = try await PasswordOpening.open(Fixtures.sample(sample), credentials: "secret")
        defer { publication.close() }
        #expect(publication.metadata.title == original.metadata.title)
        #expect(publication.readingOrder.map(\.href) == original.readingOrder.map(\.href))
        PasswordOpening.expectSameContent(publication, as: original)
    }

    @Test(arguments: samples.map(\.protected))
    func serviceIsUnrestrictedAndKeepsThePassword(_ sample: String) async throws {
        let publication = try await PasswordOpening.open(Fixtures.sample(sample), credentials: "secret")
        defer { publication.close() }
        let service = try #require(publication.contentProtectionService)
        #expect(!publication.isRestricted)
        #expect(service.error == nil)
        #expect(service.scheme == "zip-password")
        #expect(publication.protectionName == "ZIP password")
        #expect(publication.credentials == "secret")
        #expect(await publication.rights.canCopy)
        #expect(await publication.rights.canPrint)
        #expect(await publication.rights.copy(text: String(repeating: "x", count: 100_000)).isGranted)
    }

    @Test(arguments: samples.map(\.protected))
    func missingPasswordIsIncorrectCredentials(_ sample: String) async throws {
        let error = try await PasswordOpening.openingError(Fixtures.sample(sample))
        let message = try #require(PasswordOpening.incorrectCredentialsMessage(error), "\(String(describing: error))")
        #expect(message.contains("password is required"))
    }

    @Test(arguments: samples.map(\.protected))
    func wrongPasswordIsIncorrectCredentials(_ sample: String) async throws {
        let error = try await PasswordOpening.openingError(Fixtures.sample(sample), credentials: "Secret")
        let message = try #require(PasswordOpening.incorrectCredentialsMessage(error), "\(String(describing: error))")
        #expect(message.contains("incorrect password"))
    }

    @Test func rangedReadsOfAnAESEntryAreSlicesOfTheWhole() async throws {
        let publication = try await PasswordOpening.open(
            Fixtures.sample("protected-zip/derived-wasteland-winzip-aes256-secret.epub"), credentials: "secret")
        defer { publication.close() }
        let resource = publication.get("EPUB/wasteland-cover.jpg")
        defer { resource.close() }
        let whole = try resource.read().get()
        #expect(try resource.length.get() == UInt64(whole.count))
        #expect(try resource.read(range: 1000..<5000).get() == whole[1000..<5000])
        #expect(try resource.read(range: UInt64(whole.count - 10)..<UInt64(whole.count + 50)).get() == whole.suffix(10))
        #expect(whole.starts(with: [0xFF, 0xD8]))
    }
}
