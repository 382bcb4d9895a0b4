import FoundationEssentials
import Shared

/// A reading place as the kosync protocol carries it.
public struct KosyncPlace: Sendable, Equatable {
    /// The book's id (``KOReaderDocumentID``).
    public var document: String
    /// Where: the page number as a string for paged books (PDF, comics), else KOReader's
    /// XPointer (`/body/DocFragment[3]/body/div/p[7]/text().42`).
    public var progress: String
    /// How far through the book, 0…1, rounded to 4 decimals as KOReader does.
    public var percentage: Double
    /// The device's name, shown to the person on the other devices.
    public var device: String
    /// The device's stable id: a place of our own id and name is ours.
    public var deviceID: String?
    /// When the server stored it (seconds since 1970, the server's clock); nil before a push.
    public var timestamp: Int?

    public init(document: String, progress: String, percentage: Double, device: String, deviceID: String?,
                timestamp: Int? = nil) {
        self.document = document
        self.progress = progress
        self.percentage = Self.rounded(percentage)
        self.device = device
        self.deviceID = deviceID
        self.timestamp = timestamp
    }

    /// `value` clamped to 0…1 and rounded to 4 decimals (KOReader's `Math.roundPercent`).
    public static func rounded(_ value: Double) -> Double {
        guard value.isFinite else { return 0 }
        return (min(1, max(0, value)) * 10_000).rounded() / 10_000
    }

    /// Whether it was written by this device (same name and id, as KOReader decides).
    public func isFrom(_ device: KosyncDevice) -> Bool {
        self.device == device.name && deviceID == device.id
    }

    /// The body of `PUT /syncs/progress`.
    var requestJSON: JSONValue {
        var object = JSONObject([
            "document": .string(document), "progress": .string(progress),
            "percentage": .double(percentage), "device": .string(device),
        ])
        object.set("device_id", deviceID.map(JSONValue.string))
        return .object(object)
    }

    /// The answer of `GET /syncs/progress/:document`: nil for `{}` (a book never pushed) or
    /// an answer without a percentage (KOReader's test for "no progress").
    init?(response: JSONValue, document: String) {
        guard let percentage = response["percentage"]?.double ?? response["percentage"]?.string.flatMap(Double.init) else { return nil }
        let progress: String
        switch response["progress"] {
        case .string(let text): progress = text
        case .number(let text): progress = text
        default: progress = ""
        }
        self.init(document: response["document"]?.string ?? document, progress: progress, percentage: percentage,
                  device: response["device"]?.string ?? "", deviceID: response["device_id"]?.string,
                  timestamp: response["timestamp"]?.int ?? response["timestamp"]?.double.map { Int($0) })
    }
}

/// This device as the server knows it: a name shown to the person, and an id drawn at random
/// once and kept.
public struct KosyncDevice: Sendable, Equatable {
    public var name: String
    public var id: String

    public init(name: String, id: String) {
        self.name = name
        self.id = id
    }
}

/// Where and as whom to sync: the server's URL, the user name, and the key (the MD5 of the
/// password, the only form of it kept or sent).
public struct KosyncAccount: Sendable, Equatable {
    public var server: String
    public var username: String
    public var key: String

    public init(server: String, username: String, key: String) {
        self.server = server
        self.username = username
        self.key = key
    }
}
