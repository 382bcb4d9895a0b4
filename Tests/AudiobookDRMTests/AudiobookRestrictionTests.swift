import Foundation
@testable import AudiobookDRM
import Shared
import Testing
import TestSupport

/// A signed audiobook's failed checks map onto ``ProtectionRestriction`` by case (#30 item 2):
/// an altered manifest is untrusted, a revoked or returned license is a loan that is over, an
/// expired rights period an expired loan — each with its own advice.
@Suite struct AudiobookRestrictionTests {
    @Test func anAlteredManifestIsUntrustedNotALoan() async throws {
        let signing = try SignedManifestTests()
        let publication = try await signing.open(signing.replacing(try signing.signed(), "Le Petit Prince", "Le Petit Princf"))
        defer { publication.close() }
        let restriction = try #require(publication.protectionRestriction)
        #expect(restriction == .untrusted(.signatureInvalid))
        #expect(restriction.advice.contains("Download the book again"))
        #expect(!restriction.advice.lowercased().contains("renew"))
        #expect(!restriction.canRetry)
    }

    @Test func anUnknownIssuerIsAnUnknownSigner() async throws {
        let signing = try SignedManifestTests()
        let publication = try await signing.open(try signing.signed(issuer: "https://other.test"))
        defer { publication.close() }
        #expect(publication.protectionRestriction == .untrusted(.unknownSigner))
    }

    @Test(arguments: [("revoked", ProtectionRestriction.LoanInactivity.revoked(nil)), ("returned", .returned(nil)),
                      ("cancelled", .cancelled(nil)), ("expired", .expired(nil))])
    func aLicenseStatusThatEndsTheLoan(status: String, state: ProtectionRestriction.LoanInactivity) async throws {
        let (publication, server) = try await LicenseStatusTests().open(TestHTTPRoute("/status", text: #"{"status": "\#(status)"}"#))
        defer { server.stop(); publication.close() }
        let restriction = try #require(publication.protectionRestriction)
        #expect(restriction == .loanInactive(state, renewable: false))
        #expect(!restriction.canRetry)
    }

    @Test func anUnknownStatusIsUnexplainedWithTheProtectionsMessage() async throws {
        let (publication, server) = try await LicenseStatusTests().open(TestHTTPRoute("/status", text: #"{"status": "suspended"}"#))
        defer { server.stop(); publication.close() }
        #expect(publication.protectionRestriction
            == .unavailable(.unexplained("This audiobook license cannot be used (license status “suspended”).")))
    }

    @Test func theRightsPeriodMapsToTheLoanDates() {
        let end = Date(timeIntervalSince1970: 949_363_200)
        #expect(AudiobookDRMError.expired(end).protectionRestriction == .loanInactive(.expired(end), renewable: false))
        #expect(AudiobookDRMError.notYetAvailable(end).protectionRestriction == .loanInactive(.notStarted(end), renewable: false))
        #expect(AudiobookDRMError.keysUnavailable(issuer: "i", url: "u", reason: "r").protectionRestriction?.canRetry == true)
    }
}
