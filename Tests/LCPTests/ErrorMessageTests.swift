import Foundation
import LCP
import Shared
import Testing

/// Every LCP error has one line for people, with the dates and counts that matter.
@Suite struct ErrorMessageTests {
    static let date = RFC3339Date.parse("2027-03-01T12:30:00Z")!
    static let later = RFC3339Date.parse("2027-06-01T00:00:00Z")!

    static let all: [LCPError] = [
        .licenseMissing, .invalidLicense("x"), .invalidStatus("x"), .profileNotSupported("http://readium.org/lcp/profile-2.0"),
        .missingPassphrase, .wrongPassphrase(hint: "Your nickname?", hintLink: "https://example.org/hint"), .signatureInvalid,
        .certificateUntrusted("x"), .certificateExpiredAtLicenseDate(date), .certificateRevoked, .contentKeyDecryptError,
        .licenseIntegrity("x"), .licenseMismatch(expected: "a", received: "b"), .status(.notStarted(date)), .status(.expired(date)),
        .status(.returned(date)), .status(.revoked(date, devices: 3)), .status(.cancelled(date)),
        .decryption(href: "OEBPS/c.xhtml", reason: "x"), .interactionNotAvailable, .network("the server did not answer in time"),
        .licenseContainer("x"), .notLCPProtected("an EPUB publication"), .licenseBusy, .repository("x"),
        .publicationUnavailable("the server answered HTTP 404"), .cancelled,
        .publicationLengthMismatch(expected: 1_234_567, received: 1_000), .publicationHashMismatch(expected: "aa", received: "bb"),
        .notAPublication("a ZIP archive"), .renewFailed("the license is revoked"), .renewFailed(nil),
        .renewalDateNotAllowed(requested: later, latest: date), .renewalNotExtended(end: date, requested: later, latest: later),
        .returnFailed(nil), .alreadyReturned, .loanAlreadyExpired, .registrationFailed("HTTP 400"), .serverError(nil),
        .invalidCRL("an HTML page"),
    ]

    @Test func everyMessageIsOneNonEmptyLine() {
        for error in Self.all {
            let message = error.userMessage
            #expect(!message.isEmpty)
            #expect(!message.contains("\n"), "\(message)")
            #expect(message.first?.isUppercase == true, "\(message)")
            if case .wrongPassphrase = error {} else { #expect(message.hasSuffix("."), "\(message)") }
            #expect(!String(describing: error).isEmpty)
        }
    }

    @Test func datesAndCountsAreNamed() {
        #expect(LCPError.publicationLengthMismatch(expected: 1_234_567, received: 1_000).userMessage
            == "The downloaded publication is 1,000 bytes but its license announces 1,234,567 bytes; it was deleted.")
        #expect(LCPError.renewalDateNotAllowed(requested: Self.later, latest: Self.date).userMessage
            == "That renewal date is not allowed (2027-06-01 00:00 UTC); the latest possible end is 2027-03-01 12:30 UTC.")
        #expect(LCPError.renewalNotExtended(end: Self.date, requested: Self.later, latest: Self.later).userMessage
            == "The provider accepted the renewal but did not extend the loan to 2027-06-01 00:00 UTC: it still ends on 2027-03-01 12:30 UTC (the latest possible end is 2027-06-01 00:00 UTC).")
        #expect(LCPError.status(.revoked(Self.date, devices: 1)).userMessage
            == "This license was revoked by its provider on 2027-03-01 12:30 UTC. It was registered by 1 device.")
        #expect(LCPError.certificateExpiredAtLicenseDate(Self.date).userMessage.contains("2027-03-01 12:30 UTC"))
    }
}
