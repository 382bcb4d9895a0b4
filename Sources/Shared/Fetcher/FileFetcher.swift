import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Serves local files: each href prefix maps to a file or a folder, whose sub-paths are
/// reachable too. Nothing outside those roots is: `..` segments are resolved within the
/// href, and a path whose real location (symlinks followed) leaves its root is refused.
public final class FileFetcher: Fetcher {
    /// Package path prefix (no leading slash) → real path of the file or folder.
    private let roots: [(prefix: String, path: String)]

    /// - Parameter paths: local paths indexed by the href that exposes them.
    public init(paths: [String: String]) {
        roots = paths.map { (Href.path(of: $0.key) ?? "", FileFetcher.realPath($0.value) ?? $0.value) }
            .sorted { $0.prefix.count > $1.prefix.count }
    }

    /// Exposes one file or folder at `href`.
    public convenience init(href: String, path: String) {
        self.init(paths: [href: path])
    }

    public var links: [Link] {
        var result: [Link] = []
        for root in roots {
            guard let kind = FileKind(path: root.path) else { continue }
            if kind != .directory {
                result.append(link(forPath: root.prefix))
                continue
            }
            // A folder that cannot be listed is logged, not shown as a publication with nothing in it
            // without a trace; its resources can still be read by their paths.
            let children = Diagnostics.logger("lectern.fetcher").attempt("listing \(root.path)") {
                try FileManager.default.subpathsOfDirectory(atPath: root.path)
            } ?? []
            for child in children.sorted() {
                let full = root.path + "/" + child
                guard FileKind(path: full) == .file, resolve(full, within: root.path) != nil else { continue }
                result.append(link(forPath: root.prefix.isEmpty ? child : root.prefix + "/" + child))
            }
        }
        return result
    }

    private func link(forPath path: String) -> Link {
        Link(href: Href.fromPath(path), mediaType: MediaType.of(path: path))
    }

    public func get(_ link: Link, parameters: [String: String]) -> any Resource {
        guard let path = link.path else { return FailureResource(link: link, error: .notFound(link.href)) }
        var link = link
        if link.mediaType == nil {
            link.mediaType = MediaType.of(path: path)
        }
        for root in roots {
            let relative: String
            if path == root.prefix {
                relative = ""
            } else if root.prefix.isEmpty {
                relative = path
            } else if path.hasPrefix(root.prefix + "/") {
                relative = String(path.dropFirst(root.prefix.count + 1))
            } else {
                continue
            }
            let candidate = relative.isEmpty ? root.path : root.path + "/" + relative
            guard FileKind(path: candidate) != nil else { continue }
            guard let real = resolve(candidate, within: root.path) else {
                return FailureResource(link: link, error: .forbidden(ResourceFailure("\(link.href) leads outside the publication")))
            }
            return FileResource(link: link, path: real)
        }
        return FailureResource(link: link, error: .notFound(link.href))
    }

    public func close() {}

    /// The real path of `path` when it stays inside `root` (itself a real path), else nil.
    private func resolve(_ path: String, within root: String) -> String? {
        guard let real = FileFetcher.realPath(path) else { return nil }
        if real == root || real.hasPrefix(root.hasSuffix("/") ? root : root + "/") { return real }
        return nil
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
