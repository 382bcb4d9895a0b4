/// Passes every resource of its child through transformers, in order (decryption, then
/// deobfuscation, then any content fix-up).
public final class TransformingFetcher: Fetcher {
    public let fetcher: any Fetcher
    public let transformers: [ResourceTransformer]

    public init(_ fetcher: any Fetcher, transformers: [ResourceTransformer]) {
        self.fetcher = fetcher
        self.transformers = transformers
    }

    public convenience init(_ fetcher: any Fetcher, transformer: @escaping ResourceTransformer) {
        self.init(fetcher, transformers: [transformer])
    }

    public var links: [Link] { fetcher.links }

    public func get(_ link: Link, parameters: [String: String]) -> any Resource {
        transformers.reduce(fetcher.get(link, parameters: parameters)) { resource, transform in transform(resource) }
    }

    public func close() { fetcher.close() }
}
