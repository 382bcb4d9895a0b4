import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// The Streamer's protections map onto ``ProtectionRestriction`` by case (#30 item 2): a DRM
/// Lectern cannot open is "unsupported", named, with its own advice; a missing or wrong ZIP or
/// PDF password is "credentials required", which asking again can fix.
@Suite struct ProtectionRestrictionMappingTests {
    @Test func anUnsupportedDRMIsNamedAndNotRetried() async throws {
        let keyInfo = """
            <ds:KeyInfo><resource xmlns="http://ns.adobe.com/adept">urn:uuid:abc</resource></ds:KeyInfo>
            """
        let publication = try await FallbackProtectionTests().open([
            .init("META-INF/rights.xml", "<rights xmlns=\"http://ns.adobe.com/adept\"/>"),
            .init("META-INF/encryption.xml", FallbackProtectionTests.encryption("http://www.w3.org/2001/04/xmlenc#aes128-cbc",
                                                                                keyInfo: keyInfo)),
        ])
        defer { publication.close() }
        let restriction = try #require(publication.protectionRestriction)
        #expect(restriction == .unsupported(scheme: "Adobe ADEPT"))
        #expect(restriction.message == "This publication is protected with Adobe ADEPT, which Lectern cannot open.")
        #expect(restriction.advice.contains("application that supports Adobe ADEPT"))
        #expect(!restriction.advice.lowercased().contains("renew"))
        #expect(!restriction.canRetry)
        // The screen's refusal carries the same case.
        do {
            try RenderingPermission.checkDisplay(publication)
            Issue.record("a publication locked by ADEPT must not be displayed")
        } catch {
            guard case .restricted(let refused) = error else { Issue.record("refused for \(error)"); return }
            #expect(refused == restriction)
        }
    }

    @Test func anUnknownEncryptionIsUnsupportedToo() async throws {
        let publication = try await FallbackProtectionTests().open([
            .init("META-INF/encryption.xml", FallbackProtectionTests.encryption("http://example.com/secret-cipher")),
        ])
        defer { publication.close() }
        #expect(publication.protectionRestriction == .unsupported(scheme: "an unknown DRM"))
    }

    @Test func aWrongZipPasswordAsksForThePasswordAgain() async throws {
        let path = Fixtures.sample("protected-zip/derived-wasteland-pkzip-secret.epub")
        let error = try await PasswordOpening.openingError(path, credentials: "nope")
        let restriction = try #require(error?.protectionRestriction)
        #expect(restriction == .credentialsRequired(.init(kind: .password)))
        #expect(restriction.message == "A password is required to open this publication.")
        #expect(restriction.advice.contains("password"))
        #expect(restriction.canRetry)
    }

    @Test func aMissingPDFPasswordAsksForThePassword() async throws {
        let error = try await PasswordOpening.openingError(Fixtures.sample("pdf/qpdf-aes256-user-open-sesame.pdf"))
        #expect(error?.protectionRestriction == .credentialsRequired(.init(kind: .password)))
    }

    @Test func failuresThatAreNotProtectionHaveNoRestriction() {
        #expect(OpeningError.notFound("/nowhere").protectionRestriction == nil)
        #expect(OpeningError.unsupportedFormat("text").protectionRestriction == nil)
    }
}
