/// A feature attached to a publication (content protection, positions, search…), built once
/// when the publication is created (Readium Publication Helpers and Services proposal).
public protocol PublicationService: AnyObject, Sendable {
    /// Links to the web-service routes this service answers, added to the publication's links.
    var links: [Link] { get }

    /// Answers a request for one of the service's routes, or nil when it is not one of them.
    func get(_ link: Link) -> (any Resource)?

    /// Releases what the service holds.
    func close()
}

extension PublicationService {
    public var links: [Link] { [] }
    public func get(_ link: Link) -> (any Resource)? { nil }
    public func close() {}
}

/// What a service factory receives.
public struct PublicationServiceContext: Sendable {
    public let manifest: Manifest
    public let fetcher: any Fetcher
}

/// Makes a service from the publication being built, or nil to have none.
public typealias PublicationServiceFactory = @Sendable (PublicationServiceContext) -> (any PublicationService)?

/// The service factories of a publication, keyed by the service's role so that a
/// transformation can replace or decorate one.
public struct PublicationServicesBuilder: Sendable {
    /// The role of the content protection service.
    public static let contentProtection = "ContentProtectionService"
    /// The role of the positions service.
    public static let positions = "PositionsService"

    private var factories: [(key: String, factory: PublicationServiceFactory)] = []

    public init() {}

    /// Sets (or, with nil, removes) the factory for `key`.
    public mutating func set(_ key: String, _ factory: PublicationServiceFactory?) {
        factories.removeAll { $0.key == key }
        if let factory { factories.append((key, factory)) }
    }

    /// The factory for `key`.
    public func factory(for key: String) -> PublicationServiceFactory? {
        factories.first { $0.key == key }?.factory
    }

    /// Replaces the factory for `key` by one built from the previous one.
    public mutating func decorate(_ key: String, _ transform: (PublicationServiceFactory?) -> PublicationServiceFactory?) {
        set(key, transform(factory(for: key)))
    }

    func build(_ context: PublicationServiceContext) -> [any PublicationService] {
        factories.compactMap { $0.factory(context) }
    }
}
