import FoundationEssentials
import LCP
import Shared

/// What `info` and `check` say about an LCP license: id, provider, user, dates, status, and
/// the copies and prints left (read without consuming anything, through the rights channel:
/// ``UserRights/allowance``, off the cooperative pool).
struct LicenseSummary {
    let license: LCPLicense
    /// What is left of the rights, read once.
    let allowance: RightsAllowance

    /// The publication's license, with the `allowance` its rights channel gave.
    init?(_ publication: Publication, allowance: RightsAllowance) {
        guard let license = publication.lcpLicense else { return nil }
        self.license = license
        self.allowance = allowance
    }

    /// `license`, its rights read through its channel.
    init(license: LCPLicense) async {
        self.license = license
        allowance = await license.allowance
    }

    private var document: LicenseDocument { license.license }

    private var needsPassphrase: Bool {
        switch license.error {
        case .missingPassphrase?, .wrongPassphrase?: true
        default: false
        }
    }

    private var statusText: String {
        if let status = license.status { return status.status.rawValue }
        return license.areRightsValid ? "no status document (within its rights period)" : "no status document (outside its rights period)"
    }

    private func quantity(_ left: Int?, grant: Int?, unit: String) -> String {
        guard let grant else { return "unlimited" }
        // A locked license grants nothing now; "0 of N" would read as used up.
        if license.isLocked { return "none while locked (\(grant) \(unit)\(grant == 1 ? "" : "s") granted)" }
        return "\(left ?? grant) \(unit)\(left == 1 ? "" : "s") (of \(grant))"
    }

    /// `name <email>`, with whatever is known.
    private var user: String? {
        let parts = [license.userName, license.userEmail.map { "<\($0)>" }].compactMap { $0 }
        if parts.isEmpty { return document.user.id }
        return parts.joined(separator: " ")
    }

    /// Lines for the text output, as (label, value).
    var fields: [(String, String)] {
        var fields: [(String, String)] = [("License", document.id), ("Provider", document.provider)]
        if let user { fields.append(("User", user)) }
        fields.append(("Issued", RFC3339Date.display(document.issued)))
        if let updated = document.updated { fields.append(("Updated", RFC3339Date.display(updated))) }
        if let start = document.rights.start { fields.append(("Loan start", RFC3339Date.display(start))) }
        if let end = document.rights.end { fields.append(("Loan end", RFC3339Date.display(end))) }
        if let potential = license.potentialRightsEnd { fields.append(("Renewable to", RFC3339Date.display(potential))) }
        fields.append(("Status", statusText))
        fields.append(("Copies left", quantity(allowance.copy.amount, grant: license.rightsCopies, unit: "character")))
        fields.append(("Prints left", quantity(allowance.print.amount, grant: license.rightsPrints, unit: "page")))
        if let problem = license.rightsProblem { fields.append(("Rights", problem.userMessage)) }
        if let note = license.certificateTrust?.note { fields.append(("Certificate", note)) }
        if let revocation = license.revocationStatus { fields.append(("Revocation", revocation.note)) }
        // The hint helps only when the passphrase is what is missing.
        if needsPassphrase { fields.append(("Hint", document.encryption.userKey.textHint)) }
        if let hint = document.link(LicenseRel.hint)?.href, needsPassphrase { fields.append(("Hint page", hint)) }
        return fields
    }

    /// The whole license panel of `lectern license info`: the fields above, then what the
    /// status server said, this device's registration and every link.
    var panelFields: [(String, String)] {
        var fields = self.fields
        if let message = license.status?.message { fields.append(("Message", message)) }
        if let updated = license.status?.statusUpdated { fields.append(("Status date", RFC3339Date.display(updated))) }
        if let count = license.status?.registeredDeviceCount, license.status != nil {
            fields.append(("Devices", "\(count) registered"))
        }
        fields.append(("This device", license.isDeviceRegistered ? "registered" : "not registered"))
        if let error = license.error { fields.append(("Locked", error.userMessage)) }
        for link in links { fields.append((Self.label(link.rels), link.href + (link.type.map { " (\($0))" } ?? ""))) }
        return fields
    }

    /// The license's links, then the status document's.
    private var links: [LicenseLink] { document.links + (license.status?.links ?? []) }

    private static func label(_ rels: [String]) -> String {
        let rel = rels.first ?? "link"
        return "Link " + rel
    }

    var json: JSONValue {
        func date(_ value: Date?) -> JSONValue { value.map { .string(RFC3339Date.string($0)) } ?? .null }
        func number(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
        var object = JSONObject()
        object["id"] = .string(document.id)
        object["provider"] = .string(document.provider)
        object["user"] = .object(JSONObject([
            "id": document.user.id.map(JSONValue.string) ?? .null,
            "name": license.userName.map(JSONValue.string) ?? .null,
            "email": license.userEmail.map(JSONValue.string) ?? .null,
        ]))
        object["issued"] = date(document.issued)
        object["updated"] = date(document.updated)
        object["start"] = date(document.rights.start)
        object["end"] = date(document.rights.end)
        object["potentialEnd"] = date(license.potentialRightsEnd)
        object["status"] = license.status.map { .string($0.status.rawValue) } ?? .null
        object["locked"] = .bool(license.isLocked)
        object["error"] = license.error.map { .string($0.userMessage) } ?? .null
        // null = unlimited.
        object["copiesLeft"] = license.rightsCopies == nil ? .null : number(allowance.copy.amount)
        object["printsLeft"] = license.rightsPrints == nil ? .null : number(allowance.print.amount)
        object["copyGrant"] = number(license.rightsCopies)
        object["printGrant"] = number(license.rightsPrints)
        object["rightsProblem"] = license.rightsProblem.map { .string($0.userMessage) } ?? .null
        object["certificate"] = license.certificateTrust.map { .string($0.rawValue) } ?? .null
        object["revocation"] = license.revocationStatus.map { .string($0.note) } ?? .null
        object["deviceRegistered"] = .bool(license.isDeviceRegistered)
        object["statusMessage"] = license.status?.message.map(JSONValue.string) ?? .null
        object["registeredDevices"] = license.status.map { .int($0.registeredDeviceCount) } ?? .null
        object["canRenew"] = .bool(license.canRenewLoan)
        object["canReturn"] = .bool(license.canReturnPublication)
        object["links"] = .array(links.map { link in
            .object(JSONObject([
                "rel": .array(link.rels.map(JSONValue.string)), "href": .string(link.href),
                "type": link.type.map(JSONValue.string) ?? .null, "templated": .bool(link.templated),
            ]))
        })
        object["hint"] = .string(document.encryption.userKey.textHint)
        object["hintLink"] = document.link(LicenseRel.hint).map { .string($0.href) } ?? .null
        return .object(object)
    }
}
