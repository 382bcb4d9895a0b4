import Hummingbird
import Shared

/// The web-service routes of the Readium Content Protection proposal, answered from the
/// publication's own `UserRights`, so they consume the same persistent counters as the
/// terminal reader (for LCP, the license's counters in the library database, shared
/// atomically between processes):
/// - `~readium/content-protection`: the status document (`isRestricted`, `error`, `name`,
///   `rights` with `canCopy`, `canPrint` and what is left, `links`);
/// - `~readium/rights/copy?text=…&peek=true|false` and `~readium/rights/print?pageCount=N&peek=…`:
///   200 when allowed (consumed unless `peek`), 403 with a problem document otherwise.
struct RightsRoutes {
    let served: ServedPublication

    private var publication: Publication { served.publication }

    /// The service links, relative to the manifest.
    static var links: [JSONValue] {
        [
            link("~readium/content-protection", type: "application/vnd.readium.content-protection+json", templated: false),
            link("~readium/rights/copy{?text,peek}", type: "application/vnd.readium.rights.copy+json", templated: true),
            link("~readium/rights/print{?pageCount,peek}", type: "application/vnd.readium.rights.print+json", templated: true),
        ]
    }

    private static func link(_ href: String, type: String, templated: Bool) -> JSONValue {
        var object = JSONObject(["href": .string(href), "type": .string(type)])
        if templated { object["templated"] = .bool(true) }
        return .object(object)
    }

    func status() -> Response {
        var object: JSONObject
        if let service = publication.contentProtectionService, case .object(let status) = service.statusJSON {
            object = status
        } else {
            object = JSONObject(["isRestricted": .bool(false)])
        }
        object["rights"] = .object(rightsObject())
        object["links"] = .array(Self.links)
        return ServerResponse.json(.ok, .object(object), type: "application/vnd.readium.content-protection+json")
    }

    func copy(query: [String: String]) -> Response {
        guard let text = query["text"] else {
            return ServerResponse.problem(.badRequest, title: "Missing text", detail: "the `text` parameter is required")
        }
        let peek = query["peek"] == "true"
        let rights = publication.rights
        let allowed = peek ? rights.canCopy(text: text) : rights.copy(text: text)
        guard allowed else {
            let left = served.rightsLeft?().charactersToCopy
            let why = !rights.canCopy ? "the publication's rights do not allow copying"
                : "copying \(text.count) characters is more than the \(left.map(String.init) ?? "few") left"
            return ServerResponse.problem(.forbidden, title: "Copy refused", detail: why, extra: JSONObject(["rights": .object(rightsObject())]))
        }
        return ServerResponse.json(.ok, .object(JSONObject(["allowed": .bool(true), "peek": .bool(peek), "rights": .object(rightsObject())])),
                                   type: "application/vnd.readium.rights.copy+json")
    }

    func print(query: [String: String]) -> Response {
        guard let pageCount = query["pageCount"].flatMap({ Int($0) }), pageCount > 0 else {
            return ServerResponse.problem(.badRequest, title: "Missing page count",
                                          detail: "the `pageCount` parameter must be a positive number")
        }
        let peek = query["peek"] == "true"
        let rights = publication.rights
        let allowed = peek ? rights.canPrint(pageCount: pageCount) : rights.print(pageCount: pageCount)
        guard allowed else {
            let left = served.rightsLeft?().pagesToPrint
            let why = !rights.canPrint ? "the publication's rights do not allow printing"
                : "printing \(pageCount) pages is more than the \(left.map(String.init) ?? "few") left"
            return ServerResponse.problem(.forbidden, title: "Print refused", detail: why, extra: JSONObject(["rights": .object(rightsObject())]))
        }
        return ServerResponse.json(.ok, .object(JSONObject(["allowed": .bool(true), "peek": .bool(peek), "rights": .object(rightsObject())])),
                                   type: "application/vnd.readium.rights.print+json")
    }

    /// `canCopy`, `canPrint`, and what is left when the protection counts (null = unlimited).
    private func rightsObject() -> JSONObject {
        let rights = publication.rights
        var object = JSONObject(["canCopy": .bool(rights.canCopy), "canPrint": .bool(rights.canPrint)])
        let left = served.rightsLeft?()
        object["copyCharactersLeft"] = left?.charactersToCopy.map(JSONValue.int) ?? .null
        object["printPagesLeft"] = left?.pagesToPrint.map(JSONValue.int) ?? .null
        return object
    }

    /// The percent-decoded parameters of a query string (`+` is a space, as browsers send forms).
    static func parameters(of query: String?) -> [String: String] {
        guard let query else { return [:] }
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) -> String in
                let spaced = String(text.map { $0 == "+" ? " " : $0 })
                return Href.percentDecoded(spaced) ?? spaced
            }
            result[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return result
    }
}
