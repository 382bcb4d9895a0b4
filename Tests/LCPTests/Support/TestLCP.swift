import Foundation
import LCP
import LibCrypto
import LCPSQLite
import Shared
import Streamer
import TestSupport

/// An LCP service on a private database, trusting the test PKI's root (and the EDRLab test
/// root), with short status timeouts so that tests of silent servers stay quick.
struct TestLCP {
    let directory: String
    let store: LCPSQLiteStore
    let service: LCPService

    var licenses: LCPSQLiteLicenseRepository { LCPSQLiteLicenseRepository(store: store) }
    var passphrases: LCPSQLitePassphraseRepository { LCPSQLitePassphraseRepository(store: store) }

    init(directory: String = Fixtures.temporaryDirectory("lcp-env"), policy: LCPTrustSettings.Policy = .basicProfileTestMode,
         crl: String? = nil, crlProvider: (any LCPCRLProvider)? = nil, statusTimeout: Double = 2,
         interactionTimeout: Double = 5, maxInMemoryPublicationSize: Int = 256 << 20,
         now: @escaping @Sendable () -> Date = { Date() },
         passphraseRepository: (any LCPPassphraseRepository)? = nil, client: (any LCPClient)? = nil) throws {
        self.directory = directory
        store = try LCPSQLiteStore(path: directory + "/library.sqlite")
        let trust = try LCPTrustSettings(policy: policy, additionalAnchorsPEM: [TestPKI.shared.caPEM])
        service = LCPService(client: client ?? BasicProfileLCPClient(trust: trust),
                             licenseRepository: LCPSQLiteLicenseRepository(store: store),
                             passphraseRepository: passphraseRepository ?? LCPSQLitePassphraseRepository(store: store),
                             crlProvider: crlProvider ?? crl.map { LCPStaticCRLProvider(pem: $0) }, statusTimeout: statusTimeout,
                             interactionTimeout: interactionTimeout, maxInMemoryPublicationSize: maxInMemoryPublicationSize,
                             now: now)
    }

    /// The trust anchors of this environment (the test PKI's root and the EDRLab test root).
    static var anchors: [X509Certificate] {
        (try? LCPTrustSettings(additionalAnchorsPEM: [TestPKI.shared.caPEM]).anchors) ?? []
    }

    /// Opens `path` through the publication opener with LCP plugged in.
    func open(_ path: String, credentials: String? = nil, authentication: (any LCPAuthenticating)? = nil,
              allowUserInteraction: Bool = false, onAskCredentials: OnAskCredentials? = nil) async throws -> Publication {
        let asset = try AssetRetriever().retrieve(path: path)
        let opener = PublicationOpener(contentProtections: [service.contentProtection(with: authentication)],
                                       onAskCredentials: onAskCredentials)
        return try await opener.open(asset: asset, allowUserInteraction: allowUserInteraction, credentials: credentials)
    }

    /// Validates the license of the package at `path` without parsing the publication.
    func retrieveLicense(_ path: String, credentials: String? = nil, authentication: (any LCPAuthenticating)? = nil,
                         allowUserInteraction: Bool = false) async throws -> Result<LCPLicense, LCPError> {
        let asset = try AssetRetriever().retrieve(path: path)
        defer { asset.fetcher.close() }
        return await service.retrieveLicense(from: PackageLicenseContainer(asset: asset, fetcher: asset.fetcher),
                                             credentials: credentials, authentication: authentication,
                                             allowUserInteraction: allowUserInteraction, publicationPath: path)
    }
}

/// An authentication that answers from a list and records what it was asked.
final class ScriptedAuthentication: LCPAuthenticating, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String?]
    private(set) var requests: [(hint: String, reason: LCPAuthenticationReason, interactive: Bool)] = []

    init(_ answers: [String?]) {
        self.answers = answers
    }

    var requestCount: Int { lock.withLock { requests.count } }

    func retrievePassphrase(for license: LCPAuthenticatedLicense, reason: LCPAuthenticationReason,
                            allowUserInteraction: Bool, sender: (any Sendable)?) async -> String? {
        lock.withLock {
            requests.append((license.hint, reason, allowUserInteraction))
            return answers.isEmpty ? nil : answers.removeFirst()
        }
    }
}

extension Publication {
    /// The whole content of the resource at `href`.
    func read(_ href: String) throws -> Data {
        try get(href).read().get()
    }
}

extension Result where Failure == LCPError {
    /// The error, when this is a failure.
    var failure: LCPError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
