import Shared

/// Rebuilds a minimal publication from the entries of an EPUB whose package document is
/// missing, as in truncated or half-copied books: the content documents become the reading
/// order in natural file-name order, every other entry outside `META-INF/` a resource.
///
/// The person still gets to read what the package holds (decrypted, when a protection wrapped
/// the fetcher, since `encryption.xml` still says which entries are encrypted) instead of an
/// error, and a major warning says that the order and the metadata were guessed.
enum EPUBPackageRecovery {
    /// The recovered reading order and resources, or nil when the fetcher cannot list its
    /// entries or holds no content document, in which case nothing can be guessed.
    static func manifest(fetcher: any Fetcher, packagePath: String, encryptions: [String: Encryption],
                         title: String, warnings: (any WarningLogger)?) -> Manifest? {
        let entries = fetcher.links.filter { link in
            guard let path = link.path else { return false }
            return !isIgnoredEntry(path) && !path.hasPrefix("META-INF/") && path != "mimetype"
        }
        func withEncryption(_ link: Link) -> Link {
            var link = link
            link.properties.otherProperties["archive"] = nil
            if let path = link.path, let encryption = encryptions[path] { link.properties.encryption = encryption }
            return link
        }
        var readingOrder = entries.filter { $0.mediaType?.isHTML ?? false }.map(withEncryption)
        guard !readingOrder.isEmpty else { return nil }
        readingOrder.sort { naturallyPrecedes($0.href, $1.href) }
        let contentPaths = Set(readingOrder.compactMap(\.path))
        let resources = entries.filter { !contentPaths.contains($0.path ?? "") }.map(withEncryption)

        warnings?.log(Warning("the package document named by \(EPUBContainerParser.containerPath) is missing; "
                              + "the reading order was rebuilt from the \(readingOrder.count) content document(s) "
                              + "of the archive, without metadata or table of contents",
                              severity: .major, href: packagePath))
        let metadata = Metadata(title: .nonlocalized(title))
        return Manifest(metadata: metadata, readingOrder: readingOrder, resources: resources)
    }
}
