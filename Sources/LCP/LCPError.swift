import FoundationEssentials
import Shared

/// Everything that can go wrong with an LCP publication, each with one line a person
/// understands (``userMessage``), naming the dates and counts that matter.
public enum LCPError: Error, Sendable, CustomStringConvertible, UserMessageConvertible {
    /// The package is LCP-encrypted but has no license.
    case licenseMissing
    /// The license is not valid JSON or lacks a required member.
    case invalidLicense(String)
    /// A License Status Document could not be used (never shown as a failure: status is
    /// optional).
    case invalidStatus(String)
    /// The license uses a production profile, whose key transform is confidential.
    case profileNotSupported(String)
    /// No passphrase was found and none was given (a locked book, not an error to show
    /// unless the person asks to read).
    case missingPassphrase
    /// The given passphrase does not open the license.
    case wrongPassphrase(hint: String, hintLink: String?)
    /// The license signature does not verify with its certificate.
    case signatureInvalid
    /// The provider certificate does not chain to a trusted root (with the reason).
    case certificateUntrusted(String)
    /// The provider certificate was not valid at the license's date.
    case certificateExpiredAtLicenseDate(Date)
    /// The provider certificate is on the certificate revocation list.
    case certificateRevoked
    /// The content key does not decrypt to 32 bytes.
    case contentKeyDecryptError
    /// Another integrity failure (an algorithm Lectern does not know…).
    case licenseIntegrity(String)
    /// A license fetched from the status server is for another license id.
    case licenseMismatch(expected: String, received: String)
    /// The license is out of its rights or its status locks it.
    case status(LCPStatusError)
    /// A resource could not be decrypted; only that resource is affected.
    case decryption(href: String, reason: String)
    /// The license has no link for this interaction.
    case interactionNotAvailable
    /// A network exchange the person asked for failed.
    case network(String)
    /// The license could not be read from or written into the package.
    case licenseContainer(String)
    /// The file is neither an LCP-protected publication nor a license (what it is instead).
    case notLCPProtected(String)
    /// The license is being validated by another request.
    case licenseBusy
    /// The license or passphrase store failed.
    case repository(String)
    /// A loan was renewed, but the license the provider sent back was refused (the reason:
    /// a bad signature, another license…); the previous one is kept.
    case renewedLicenseRefused(String)

    // Acquisition and streaming of the publication a bare license points to (lcp.md §18).

    /// The publication could not be downloaded or read from its server (with the reason).
    case publicationUnavailable(String)
    /// The person cancelled the download; nothing was kept.
    case cancelled
    /// The downloaded publication does not have the `length` its license announces.
    case publicationLengthMismatch(expected: Int, received: Int)
    /// The downloaded publication does not have the SHA-256 its license announces.
    case publicationHashMismatch(expected: String, received: String)
    /// The downloaded file is not a publication Lectern can open (what it is instead).
    case notAPublication(String)

    // License Status interactions (lcp.md §10.3).

    /// The provider refused to renew the loan (its explanation, when it gave one).
    case renewFailed(String?)
    /// The renewal end date is not allowed; `latest` is `potential_rights.end` when known.
    case renewalDateNotAllowed(requested: Date?, latest: Date?)
    /// The provider accepted the renewal but the loan did not change (the reference server's
    /// answer to a date beyond its limit): it still ends on `end`.
    case renewalNotExtended(end: Date?, requested: Date?, latest: Date?)
    /// The provider could not take the book back.
    case returnFailed(String?)
    /// The book had already been returned.
    case alreadyReturned
    /// The loan had already expired, so it cannot be returned.
    case loanAlreadyExpired
    /// The provider refused to register this device.
    case registrationFailed(String?)
    /// The provider's server failed (HTTP 5xx).
    case serverError(String?)
    /// A downloaded certificate revocation list was refused (never cached).
    case invalidCRL(String)

    public var description: String {
        switch self {
        case .invalidLicense(let reason): "\(userMessage) (\(reason))"
        case .invalidStatus(let reason): "invalid License Status Document (\(reason))"
        case .certificateUntrusted(let reason): "\(userMessage) (\(reason))"
        case .licenseIntegrity(let reason):
            "\(userMessage) (\(reason))"
        case .publicationHashMismatch(let expected, let received):
            "\(userMessage) (expected \(expected), received \(received))"
        default: userMessage
        }
    }

    public var userMessage: String {
        switch self {
        case .licenseMissing:
            "This book is protected with Readium LCP but its license is missing."
        case .invalidLicense:
            "The LCP license of this book is not valid."
        case .invalidStatus:
            "The license status sent by the provider is not valid."
        case .profileNotSupported(let profile):
            "This book uses a commercial Readium LCP profile (\(Self.profileName(profile))) that requires EDRLab's certified library. Lectern can open only test (basic-profile) LCP publications."
        case .missingPassphrase:
            "A passphrase is required to open this book."
        case .wrongPassphrase(let hint, let link):
            "Wrong passphrase. Hint: \(hint)" + (link.map { " (see \($0))" } ?? "")
        case .signatureInvalid:
            "The LCP license signature is invalid; the book cannot be opened."
        case .certificateUntrusted:
            "The license was signed by an unknown provider certificate."
        case .certificateExpiredAtLicenseDate(let date):
            "The provider certificate was not valid when this license was issued (\(RFC3339Date.display(date)))."
        case .certificateRevoked:
            "The provider certificate of this license has been revoked."
        case .contentKeyDecryptError:
            "The LCP license is damaged (content key)."
        case .licenseIntegrity:
            "The LCP license of this book cannot be checked; the book cannot be opened."
        case .licenseMismatch:
            "The provider sent a license for another book."
        case .status(let error):
            error.userMessage
        case .decryption(let href, _):
            "Part of this book could not be decrypted (\(href))."
        case .interactionNotAvailable:
            "This action is not available for this book."
        case .network(let cause):
            "Network error: \(cause)."
        case .licenseContainer(let reason):
            "Could not read or update the license inside the book file (\(reason))."
        case .notLCPProtected(let what):
            "This file is not protected with Readium LCP (\(what))."
        case .licenseBusy:
            "The license is being checked; try again."
        case .renewedLicenseRefused(let reason):
            "The loan was renewed, but the license the provider sent back was refused (\(reason)); the previous license is kept."
        case .repository(let reason):
            "Lectern's license database could not be used: \(reason)."
        case .publicationUnavailable(let reason):
            "The publication of this license cannot be downloaded: \(reason)."
        case .cancelled:
            "The download was cancelled; nothing was kept."
        case .publicationLengthMismatch(let expected, let received):
            "The downloaded publication is \(Self.bytes(received)) but its license announces \(Self.bytes(expected)); it was deleted."
        case .publicationHashMismatch:
            "The downloaded publication does not match the SHA-256 its license announces; it was deleted."
        case .notAPublication(let what):
            "The downloaded file is not a publication Lectern can open (\(what)); it was deleted."
        case .renewFailed(let detail):
            "The loan could not be renewed" + Self.detail(detail) + "."
        case .renewalDateNotAllowed(let requested, let latest):
            "That renewal date is not allowed"
                + (requested.map { " (\(RFC3339Date.display($0)))" } ?? "")
                + (latest.map { "; the latest possible end is \(RFC3339Date.display($0))" } ?? "") + "."
        case .renewalNotExtended(let end, let requested, let latest):
            "The provider accepted the renewal but did not extend the loan"
                + (requested.map { " to \(RFC3339Date.display($0))" } ?? "")
                + (end.map { ": it still ends on \(RFC3339Date.display($0))" } ?? "")
                + (latest.map { " (the latest possible end is \(RFC3339Date.display($0)))" } ?? "") + "."
        case .returnFailed(let detail):
            "The book could not be returned" + Self.detail(detail) + ". Try again later."
        case .alreadyReturned:
            "This book was already returned."
        case .loanAlreadyExpired:
            "This loan has already expired."
        case .registrationFailed(let detail):
            "This device could not be registered with the provider" + Self.detail(detail) + "."
        case .serverError(let detail):
            "The library server had a problem" + Self.detail(detail) + ". Try again later."
        case .invalidCRL(let reason):
            "The certificate revocation list downloaded for LCP licenses is not usable (\(reason))."
        }
    }

    /// ` (detail)` when there is one.
    private static func detail(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "" }
        return " (\(text))"
    }

    /// `1,234 bytes`.
    static func bytes(_ count: Int) -> String {
        let digits = String(count)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return grouped + (count == 1 ? " byte" : " bytes")
    }

    /// `profile-2.0` from `http://readium.org/lcp/profile-2.0`.
    static func profileName(_ uri: String) -> String {
        uri.split(separator: "/").last.map(String.init) ?? uri
    }

    /// Whether the error is about the integrity of the license (signature, certificate, keys)
    /// rather than its status or the person's input.
    public var isIntegrityFailure: Bool {
        switch self {
        case .signatureInvalid, .certificateUntrusted, .certificateExpiredAtLicenseDate, .certificateRevoked,
             .contentKeyDecryptError, .licenseIntegrity, .invalidLicense, .profileNotSupported:
            true
        default:
            false
        }
    }
}

/// Why a license that is otherwise fine does not open now (rights dates, License Status).
public enum LCPStatusError: Error, Sendable, Hashable, UserMessageConvertible {
    /// The loan has not started (`rights.start` is in the future).
    case notStarted(Date)
    /// The loan ended (`rights.end`, or the status says so).
    case expired(Date?)
    /// The person returned the book.
    case returned(Date?)
    /// The provider revoked the license; `devices` is how many devices had registered it.
    case revoked(Date?, devices: Int)
    /// Returned before it was ever used.
    case cancelled(Date?)

    public var userMessage: String {
        switch self {
        case .notStarted(let date): "This loan starts on \(RFC3339Date.display(date))."
        case .expired(let date): date.map { "This loan expired on \(RFC3339Date.display($0))." } ?? "This loan has expired."
        case .returned(let date): date.map { "This book was returned on \(RFC3339Date.display($0))." } ?? "This book was returned."
        case .revoked(let date, let devices):
            (date.map { "This license was revoked by its provider on \(RFC3339Date.display($0))." }
                ?? "This license was revoked by its provider.")
                + " It was registered by \(devices) device\(devices == 1 ? "" : "s")."
        case .cancelled(let date): date.map { "This license was cancelled on \(RFC3339Date.display($0))." } ?? "This license was cancelled."
        }
    }
}
