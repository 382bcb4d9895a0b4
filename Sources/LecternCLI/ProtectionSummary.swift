import Shared

/// What the commands say about a publication's protection.
struct ProtectionSummary {
    let scheme: String
    let name: String?
    let restricted: Bool
    let error: String?
    /// What the person can do about the restriction (by its case), when it is restricted.
    let advice: String?
    let canCopy: Bool
    let canPrint: Bool
    /// The LCP license, when there is one.
    let license: LicenseSummary?

    /// Reads the rights once (for LCP, in the license database, off the cooperative pool).
    init?(_ publication: Publication) async {
        guard let service = publication.contentProtectionService else { return nil }
        scheme = service.scheme
        name = service.name?.string
        restricted = service.isRestricted
        error = service.error.map(userMessage(of:))
        advice = service.restriction.map(ProtectionAdvice.text)
        let allowance = await service.rights.allowance
        canCopy = allowance.copy.allows(1)
        canPrint = allowance.print.allows(1)
        license = LicenseSummary(publication, allowance: allowance)
    }

    var json: JSONValue {
        var object = JSONObject()
        object["scheme"] = .string(scheme)
        object["name"] = name.map(JSONValue.string) ?? .null
        object["restricted"] = .bool(restricted)
        object["error"] = error.map(JSONValue.string) ?? .null
        object["advice"] = advice.map(JSONValue.string) ?? .null
        object["rights"] = .object(JSONObject(["canCopy": .bool(canCopy), "canPrint": .bool(canPrint)]))
        return .object(object)
    }
}
