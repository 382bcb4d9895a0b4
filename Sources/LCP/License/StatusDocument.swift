import FoundationEssentials
import Shared

/// A License Status Document (LSD 1.0 §2): the state of a loan on the provider's server and
/// the links to register, renew and return.
public struct StatusDocument: Sendable {
    /// `status` (LSD §2.3).
    public enum Status: String, Sendable, Hashable {
        /// Issued, not yet used.
        case ready
        /// A device registered it.
        case active
        /// Invalidated by the provider.
        case revoked
        /// Returned by the user.
        case returned
        /// Returned before it was ever used.
        case cancelled
        /// Past its end date.
        case expired
    }

    /// One entry of `events` (LSD §2.5).
    public struct Event: Sendable, Hashable {
        /// `register`, `renew`, `return`, `revoke`, `cancel`.
        public let type: String
        /// The device name.
        public let name: String?
        /// The device id.
        public let id: String?
        public let timestamp: Date?
    }

    /// The license id; must match the license it was fetched for.
    public let id: String
    public let status: Status
    /// Text for people, from the server.
    public let message: String?
    /// When the license was last updated on the server (`updated.license`).
    public let licenseUpdated: Date?
    /// When the status last changed (`updated.status`), the date of a return or revocation.
    public let statusUpdated: Date?
    public let links: [LicenseLink]
    /// The latest end date a renewal may reach (`potential_rights.end`).
    public let potentialRightsEnd: Date?
    public let events: [Event]
    /// The exact bytes received.
    public let data: Data

    /// Parses a status document.
    ///
    /// - Throws: ``LCPError/invalidStatus(_:)`` when it is not JSON, lacks `id` or `status`, or
    ///   has a `status` LSD 1.0 does not define (no usable status).
    public init(data: some Collection<UInt8>) throws(LCPError) {
        let bytes = Data(data)
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw .invalidStatus(error.description)
        }
        guard let object = json.object else { throw .invalidStatus("not a JSON object") }
        guard let id = object["id"]?.string else { throw .invalidStatus("no `id`") }
        guard let statusText = object["status"]?.string else { throw .invalidStatus("no `status`") }
        guard let status = Status(rawValue: statusText) else { throw .invalidStatus("unknown status \"\(statusText)\"") }
        self.id = id
        self.status = status
        self.data = bytes
        message = object["message"]?.string
        licenseUpdated = try Self.date(object["updated"]?["license"], "updated.license")
        statusUpdated = try Self.date(object["updated"]?["status"], "updated.status")
        do {
            links = try LicenseLink.array(object["links"], in: "status document")
        } catch {
            throw .invalidStatus(error.userMessage)
        }
        potentialRightsEnd = try Self.date(object["potential_rights"]?["end"], "potential_rights.end")
        events = (object["events"]?.array ?? []).compactMap { element in
            guard let event = element.object, let type = event["type"]?.string else { return nil }
            return Event(type: type, name: event["name"]?.string, id: event["id"]?.string,
                         timestamp: event["timestamp"]?.string.flatMap(RFC3339Date.parse))
        }
    }

    private static func date(_ value: JSONValue?, _ name: String) throws(LCPError) -> Date? {
        guard let value, value != .null else { return nil }
        guard let text = value.string, let date = RFC3339Date.parse(text) else { throw .invalidStatus("`\(name)` is not a date") }
        return date
    }

    /// The first link with `rel`, preferring one whose type is `type` when given.
    public func link(_ rel: String, type: String? = nil) -> LicenseLink? {
        let candidates = links.filter(byRel: rel)
        if let type, let match = candidates.first(where: { $0.type == type }) { return match }
        return candidates.first
    }

    /// How many devices registered the license: the `register` events.
    public var registeredDeviceCount: Int { events.filter { $0.type == "register" }.count }
}
