/// The web service of the Readium Content Protection proposal, answered from the
/// publication's own ``UserRights`` — the one implementation of these routes (the
/// publication server turns its answers into HTTP responses):
/// - `~readium/content-protection`: the status document (`isRestricted`, `error`, `name`,
///   `rights` with `canCopy`, `canPrint` and what is left, `links`);
/// - `~readium/rights/copy?text=…&peek=true|false` and `~readium/rights/print?pageCount=N&peek=…`:
///   allowed (consumed unless `peek`) or refused, with what is left either way.
///
/// Each answer reads or spends the rights once: a copy is decided, recorded and counted in
/// one call to the rights (for LCP, one transaction).
public struct RightsWebService: Sendable {
    /// An answer, independent of the transport.
    public enum Answer: Sendable {
        /// 200: a JSON document of `mediaType`.
        case document(JSONValue, mediaType: String)
        /// 403: the rights refuse; `rights` says what is left.
        case refused(title: String, detail: String, rights: JSONObject)
        /// 400: the request lacks a parameter or has a wrong one.
        case invalid(title: String, detail: String)
    }

    public static let statusType = "application/vnd.readium.content-protection+json"
    public static let copyType = "application/vnd.readium.rights.copy+json"
    public static let printType = "application/vnd.readium.rights.print+json"

    public let publication: Publication

    public init(publication: Publication) {
        self.publication = publication
    }

    /// The service links, relative to the manifest.
    public static var links: [JSONValue] {
        [
            link("~readium/content-protection", type: statusType, templated: false),
            link("~readium/rights/copy{?text,peek}", type: copyType, templated: true),
            link("~readium/rights/print{?pageCount,peek}", type: printType, templated: true),
        ]
    }

    private static func link(_ href: String, type: String, templated: Bool) -> JSONValue {
        var object = JSONObject(["href": .string(href), "type": .string(type)])
        if templated { object["templated"] = .bool(true) }
        return .object(object)
    }

    /// The status document.
    public func status() async -> Answer {
        var object = JSONObject(["isRestricted": .bool(false)])
        if let service = publication.contentProtectionService {
            object["isRestricted"] = .bool(service.isRestricted)
            if let error = service.error { object["error"] = LocalizedString.localized(["en": userMessage(of: error)]).json }
            if let name = service.name { object["name"] = name.json }
        }
        object["rights"] = .object(Self.rightsObject(await publication.rights.allowance))
        object["links"] = .array(Self.links)
        return .document(.object(object), mediaType: Self.statusType)
    }

    /// `~readium/rights/copy`: `text` (required) and `peek`.
    public func copy(query: [String: String]) async -> Answer {
        guard let text = query["text"] else {
            return .invalid(title: "Missing text", detail: "the `text` parameter is required")
        }
        let peek = query["peek"] == "true"
        let (allowed, allowance) = await decide(peek: peek, amount: text.count,
                                                 of: \.copy) { rights in await rights.copy(text: text) }
        guard allowed else {
            return Self.refusal("Copy refused", verb: "copying", asked: "\(text.count) characters", left: allowance.copy, allowance)
        }
        return Self.allowed(peek: peek, allowance, type: Self.copyType)
    }

    /// `~readium/rights/print`: `pageCount` (a positive number) and `peek`.
    public func print(query: [String: String]) async -> Answer {
        guard let pageCount = query["pageCount"].flatMap({ Int($0) }), pageCount > 0 else {
            return .invalid(title: "Missing page count", detail: "the `pageCount` parameter must be a positive number")
        }
        let peek = query["peek"] == "true"
        let (allowed, allowance) = await decide(peek: peek, amount: pageCount,
                                                 of: \.print) { rights in await rights.print(pages: pageCount) }
        guard allowed else {
            return Self.refusal("Print refused", verb: "printing", asked: "\(pageCount) pages", left: allowance.print, allowance)
        }
        return Self.allowed(peek: peek, allowance, type: Self.printType)
    }

    /// A peek reads the allowance; a spend asks the rights once and keeps what they say is left.
    private func decide(peek: Bool, amount: Int, of right: KeyPath<RightsAllowance, RightAllowance>,
                        spend: (any UserRights) async -> RightsDecision) async -> (Bool, RightsAllowance) {
        let rights = publication.rights
        if peek {
            let allowance = await rights.allowance
            return (allowance[keyPath: right].allows(amount), allowance)
        }
        let decision = await spend(rights)
        return (decision.isGranted, decision.allowance)
    }

    /// Why a spend was refused: nothing of the right at all, or less than `asked`.
    private static func refusal(_ title: String, verb: String, asked: String, left: RightAllowance,
                                _ allowance: RightsAllowance) -> Answer {
        let why = !left.allows(1) ? "the publication's rights do not allow \(verb)"
            : "\(verb) \(asked) is more than the \(left.amount.map(String.init) ?? "few") left"
        return .refused(title: title, detail: why, rights: rightsObject(allowance))
    }

    private static func allowed(peek: Bool, _ allowance: RightsAllowance, type: String) -> Answer {
        .document(.object(JSONObject(["allowed": .bool(true), "peek": .bool(peek), "rights": .object(rightsObject(allowance))])),
                  mediaType: type)
    }

    /// `canCopy`, `canPrint`, and what is left when the protection counts (null = uncounted).
    static func rightsObject(_ allowance: RightsAllowance) -> JSONObject {
        var object = JSONObject(["canCopy": .bool(allowance.copy.allows(1)), "canPrint": .bool(allowance.print.allows(1))])
        object["copyCharactersLeft"] = allowance.copy.amount.map(JSONValue.int) ?? .null
        object["printPagesLeft"] = allowance.print.amount.map(JSONValue.int) ?? .null
        return object
    }

    /// The percent-decoded parameters of a query string (`+` is a space, as browsers send forms).
    public static func parameters(of query: String?) -> [String: String] {
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
