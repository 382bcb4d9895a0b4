import Shared

/// Recognises publications protected by a technology that no registered protection unlocked
/// (Readium LCP when the LCP module is absent, Adobe ADEPT, unknown encryption) and opens them
/// restricted with an error naming the technology, instead of handing ciphertext to a parser.
/// It is always tried last.
struct FallbackContentProtection: ContentProtection {
    func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
              sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
        let technology: UnsupportedProtection
        if asset.format.isLCPProtected {
            technology = .lcp
        } else if asset.format.isAdeptProtected {
            technology = .adept
        } else if asset.format.kind == .epub, Self.hasUnknownEncryption(fetcher) {
            technology = .unknown
        } else {
            return nil
        }
        let locked = TransformingFetcher(fetcher) { resource in
            guard let encryption = resource.link.encryption, !encryption.isFontObfuscation else { return resource }
            return FailureResource(link: resource.link, error: .forbidden(technology.error))
        }
        return ProtectedAsset(asset: asset, fetcher: locked) { builder in
            builder.servicesBuilder.set(PublicationServicesBuilder.contentProtection) { _ in
                UnsupportedProtectionService(technology: technology)
            }
        }
    }
}

extension FallbackContentProtection {
    /// Whether `META-INF/encryption.xml` encrypts resources with an algorithm that is neither
    /// font obfuscation nor a DRM Lectern names. A damaged encryption.xml does not count:
    /// calling a plain book protected is the opposite mistake (Kobo and mdbook-epub#23).
    static func hasUnknownEncryption(_ fetcher: any Fetcher) -> Bool {
        let resource = fetcher.get(Link(href: EPUBEncryptionParser.path))
        defer { resource.close() }
        guard case .success(let data) = resource.read() else { return false }
        guard let document = try? EPUBEncryptionParser.parseDocument(data) else { return false }
        return !document.unknownEntries.isEmpty
    }
}

/// A protection Lectern recognises but cannot unlock.
public enum UnsupportedProtection: String, Sendable {
    case lcp = "http://readium.org/2014/01/lcp"
    case adept = "http://ns.adobe.com/adept"
    case unknown = "unknown"

    /// The technology's name for people.
    public var name: String {
        switch self {
        case .lcp: "Readium LCP"
        case .adept: "Adobe ADEPT"
        case .unknown: "an unknown DRM"
        }
    }

    var error: ProtectionNotSupportedError { ProtectionNotSupportedError(technology: self) }
}

/// The error of a publication locked by a protection Lectern cannot unlock.
public struct ProtectionNotSupportedError: Error, Sendable, CustomStringConvertible, UserMessageConvertible,
                                          ProtectionRestrictionConvertible {
    public let technology: UnsupportedProtection

    public var protectionRestriction: ProtectionRestriction? { .unsupported(scheme: technology.name) }

    public var userMessage: String {
        switch technology {
        case .lcp: "This publication is protected with Readium LCP, which this build of Lectern cannot open."
        case .adept: "This publication is protected with Adobe ADEPT DRM, which Lectern does not support."
        case .unknown: "This publication is encrypted with a method Lectern does not know."
        }
    }

    public var description: String { userMessage }
}

/// The content protection service of a publication locked by an unsupported protection.
final class UnsupportedProtectionService: ContentProtectionService {
    let technology: UnsupportedProtection

    init(technology: UnsupportedProtection) {
        self.technology = technology
    }

    var isRestricted: Bool { true }
    var error: (any Error)? { technology.error }
    var restriction: ProtectionRestriction? { .unsupported(scheme: technology.name) }
    var name: LocalizedString? { .nonlocalized(technology.name) }
    var scheme: String { technology.rawValue }
}
