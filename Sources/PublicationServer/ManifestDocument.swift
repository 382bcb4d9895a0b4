import Shared

/// The Readium Web Publication Manifest handed to the browser: the opened publication's
/// manifest with a `self` link, every local `href` relative to the manifest (package paths
/// already are; the service routes lose their leading `/`), the content-protection service
/// links, and nothing that reveals a file system path (`file:` links are dropped).
///
/// Remote (`http(s):`) hrefs become local ones under `~remote/` (``RemoteHref``): the server
/// fetches them through the publication's Fetcher, with the host's credentials injected.
enum ManifestDocument {
    static let mediaType = "application/webpub+json"

    /// - Parameter selfURL: the absolute URL of this manifest on the server.
    static func json(of publication: Publication, selfURL: String) -> JSONValue {
        guard case .object(var object) = rewritten(publication.manifest.json) else { return publication.manifest.json }
        var links = object["links"]?.array ?? []
        links.removeAll { link in link["rel"]?.strings.contains("self") == true }
        links.insert(.object(JSONObject(["rel": .string("self"), "href": .string(selfURL), "type": .string(mediaType)])), at: 0)
        object["links"] = .array(links)
        return .object(object)
    }

    /// `value` with every link object's href made local, and links to local files removed.
    static func rewritten(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let values):
            return .array(values.compactMap { element in
                if let href = element["href"]?.string, element.object != nil, Href.scheme(of: href)?.lowercased() == "file" {
                    return nil
                }
                return rewritten(element)
            })
        case .object(var object):
            for member in object.members {
                if member.key == "href", let href = member.value.string {
                    object[member.key] = .string(localHref(href))
                } else {
                    object[member.key] = rewritten(member.value)
                }
            }
            return .object(object)
        default:
            return value
        }
    }

    /// A package path or service route, relative to the manifest (which sits at the root of
    /// the publication's URL space).
    static func localHref(_ href: String) -> String {
        if let remote = RemoteHref.localHref(of: href) { return remote }
        guard !Href.isAbsoluteURL(href) else { return href }
        var local = Substring(href)
        while local.hasPrefix("/") { local.removeFirst() }
        return String(local)
    }
}
