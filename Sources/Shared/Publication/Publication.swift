/// An open publication: its manifest, its resources and its services. This is what the rest
/// of Lectern reads; the fetcher tree behind it is private.
public final class Publication: Sendable {
    public let manifest: Manifest
    /// The format it was opened as.
    public let format: Format?
    let fetcher: any Fetcher
    let servicesBuilder: PublicationServicesBuilder
    let services: [any PublicationService]

    public init(manifest: Manifest, fetcher: any Fetcher = EmptyFetcher(),
                servicesBuilder: PublicationServicesBuilder = PublicationServicesBuilder(), format: Format? = nil) {
        self.fetcher = fetcher
        self.servicesBuilder = servicesBuilder
        self.format = format
        let services = servicesBuilder.build(PublicationServiceContext(manifest: manifest, fetcher: fetcher))
        self.services = services
        var manifest = manifest
        manifest.links += services.flatMap(\.links)
        self.manifest = manifest
    }

    public var metadata: Metadata { manifest.metadata }
    public var links: [Link] { manifest.links }
    public var readingOrder: [Link] { manifest.readingOrder }
    public var resources: [Link] { manifest.resources }
    public var tableOfContents: [Link] { manifest.tableOfContents }

    /// The resource of `link`: a service route, else the fetcher's resource. Always returns a
    /// resource; errors surface when it is read.
    public func get(_ link: Link) -> any Resource {
        for service in services {
            if let resource = service.get(link) { return resource }
        }
        var complete = link
        if link.mediaType == nil, let known = manifest.link(withHREF: link.href) {
            complete = known
            complete.href = link.href
        }
        return fetcher.get(complete)
    }

    /// The resource at `href` (a package path or an absolute URL, optionally with a fragment
    /// or, for service routes, a query).
    public func get(_ href: String) -> any Resource {
        if let known = manifest.link(withHREF: href), !known.templated {
            var link = known
            link.href = Href.removingFragment(href)
            return get(link)
        }
        return get(Link(href: href))
    }

    /// The first service of type `T`.
    public func findService<T>(_ type: T.Type) -> T? {
        for service in services { if let match = service as? T { return match } }
        return nil
    }

    /// A copy with a changed manifest, fetcher or services (e.g. to index it through an
    /// extra transformer). The copy shares the fetcher: close only one of them.
    public func copy(_ transform: (inout Manifest, inout any Fetcher, inout PublicationServicesBuilder) -> Void) -> Publication {
        var manifest = manifest
        manifest.links.removeAll { link in services.contains { $0.links.contains(link) } }
        var fetcher = fetcher
        var builder = servicesBuilder
        transform(&manifest, &fetcher, &builder)
        return Publication(manifest: manifest, fetcher: fetcher, servicesBuilder: builder, format: format)
    }

    /// Closes the fetcher tree and the services.
    public func close() {
        for service in services { service.close() }
        fetcher.close()
    }
}

/// A publication under construction, passed through the transforms of the protection, the
/// opener and the caller before ``build()``.
public struct PublicationBuilder: Sendable {
    public var manifest: Manifest
    public var fetcher: any Fetcher
    public var servicesBuilder: PublicationServicesBuilder
    public var format: Format?

    /// Changes a builder before the publication is built.
    public typealias Transform = @Sendable (inout PublicationBuilder) -> Void

    public init(manifest: Manifest, fetcher: any Fetcher,
                servicesBuilder: PublicationServicesBuilder = PublicationServicesBuilder(), format: Format? = nil) {
        self.manifest = manifest
        self.fetcher = fetcher
        self.servicesBuilder = servicesBuilder
        self.format = format
    }

    public mutating func apply(_ transform: Transform?) {
        transform?(&self)
    }

    public func build() -> Publication {
        Publication(manifest: manifest, fetcher: fetcher, servicesBuilder: servicesBuilder, format: format)
    }
}
