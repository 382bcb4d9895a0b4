import LibPoppler
import Shared

/// The password and permissions of PDF files (the PDF protection of the Readium Content
/// Protection proposal), for the standard security handler — RC4 40/128, AES-128, AES-256.
///
/// - An unencrypted PDF is not claimed: it gets no protection service.
/// - The credentials are tried as the user or the owner password (poppler tries both). A PDF
///   whose user password is empty opens without credentials and without prompting.
/// - Missing or wrong credentials: `onAskCredentials` when `allowUserInteraction`, again
///   after each wrong answer until the person cancels; otherwise, or once cancelled,
///   ``OpeningError/incorrectCredentials(_:)``. There is no restricted mode: the metadata of
///   an encrypted PDF is encrypted too. Credentials given explicitly that are wrong are
///   refused even when the PDF would open without them, so a mistyped owner password is
///   reported rather than silently ignored.
/// - The permissions become the publication's rights (``PDFProtectionService``).
///
/// Only whole PDF files: a PDF inside a package (LCP PDF) is protected by the package.
public struct PDFContentProtection: ContentProtection {
    public init() {}

    public func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
                     sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
        guard asset.format.kind == .pdf else { return nil }
        // A PDF that cannot be read or parsed is the parser's to report.
        guard case .success(let source) = PDFSource.of(asset: asset, fetcher: fetcher), Self.isEncrypted(source) else {
            return nil
        }

        var refusal: String?
        if let credentials {
            if let document = try Self.unlock(source, password: credentials) {
                return Self.protectedAsset(asset, fetcher: fetcher, document: document, password: credentials)
            }
            refusal = PDFPasswordMessage.incorrect
        } else if let document = try Self.unlock(source, password: nil) {
            // The user password is empty: anyone may open it, under its permissions.
            return Self.protectedAsset(asset, fetcher: fetcher, document: document, password: nil)
        }

        guard allowUserInteraction, let onAskCredentials else {
            throw .incorrectCredentials(refusal ?? PDFPasswordMessage.missing)
        }
        while true {
            let request = CredentialsRequest(kind: .password, title: AssetName.title(of: asset.name),
                                             message: PDFPasswordMessage.prompt, error: refusal)
            guard let answer = await onAskCredentials(request, sender) else {
                throw .incorrectCredentials(refusal ?? PDFPasswordMessage.missing)
            }
            if let document = try Self.unlock(source, password: answer) {
                return Self.protectedAsset(asset, fetcher: fetcher, document: document, password: answer)
            }
            refusal = PDFPasswordMessage.incorrect
        }
    }

    /// Whether the document is encrypted. poppler-glib has no call for it, but ignores the
    /// password of an unencrypted document while refusing, on an encrypted one, a password
    /// that matches neither of its passwords: a random password tells them apart. A document
    /// poppler cannot parse counts as not encrypted here, for the parser to report.
    static func isEncrypted(_ source: PDFSource) -> Bool {
        var generator = SystemRandomNumberGenerator()
        let probe = (0..<4).map { _ in String(generator.next() as UInt64, radix: 36) }.joined(separator: "-")
        do {
            try source.open(password: probe).close()
            return false
        } catch .passwordRequired {
            return true
        } catch {
            return false
        }
    }

    /// The document opened with `password`, or nil when the password does not open it.
    static func unlock(_ source: PDFSource, password: String?) throws(OpeningError) -> PDFDocument? {
        do {
            return try source.open(password: password)
        } catch .passwordRequired {
            return nil
        } catch {
            throw .parsingFailed(error)
        }
    }

    static func protectedAsset(_ asset: Asset, fetcher: any Fetcher, document: PDFDocument, password: String?) -> ProtectedAsset {
        let permissions = document.permissions
        return ProtectedAsset(asset: asset, fetcher: UnlockedPDFFetcher(fetcher, document: document)) { builder in
            builder.servicesBuilder.set(PublicationServicesBuilder.contentProtection) { _ in
                PDFProtectionService(password: password, permissions: permissions)
            }
        }
    }
}

/// What the PDF protection tells a person.
enum PDFPasswordMessage {
    static let prompt = "This PDF is protected by a password."
    static let missing = "this PDF is protected by a password: give its user or owner password"
    static let incorrect = "incorrect password for this PDF"
}
