import Bookshelf
import FoundationEssentials
import Shared

/// What the bookshelf can do with LCP licenses, given by the executable (which has the LCP
/// module): the bookshelf itself knows nothing of LCP.
public struct LicenseServices: Sendable {
    /// A license as the details popup shows it.
    public struct Details: Sendable {
        /// (label, value) lines.
        public var fields: [Field]
        public var canRenew: Bool
        public var canReturn: Bool
        /// Why the license's status document could not be read (its License Status server
        /// cannot be reached): renew and return are then unknown, not refused.
        public var statusUnavailable: String?

        public init(fields: [Field], canRenew: Bool, canReturn: Bool, statusUnavailable: String? = nil) {
            self.fields = fields
            self.canRenew = canRenew
            self.canReturn = canReturn
            self.statusUnavailable = statusUnavailable
        }
    }

    public struct Field: Sendable, Hashable {
        public var label: String
        public var value: String
        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    /// How far a download has gone: a fraction when the length is known, and the bytes.
    public struct Progress: Sendable, Hashable {
        public var fraction: Double?
        public var received: Int64
        public init(fraction: Double?, received: Int64) {
            self.fraction = fraction
            self.received = received
        }
    }

    /// The license of the publication (or `.lcpl`) at a path, validated without prompting.
    public var details: @Sendable (_ path: String) async -> Result<Details, OpenFailure>
    /// Renews the loan (the provider's default period); the message to show.
    public var renew: @Sendable (_ path: String) async -> Result<String, OpenFailure>
    /// Returns the publication.
    public var giveBack: @Sendable (_ path: String) async -> Result<String, OpenFailure>
    /// Downloads the publication of the license at `lcpl` into `directory` with the license
    /// inside; the path of the publication.
    public var acquire: @Sendable (_ lcpl: String, _ directory: String, _ onProgress: @escaping @Sendable (Progress) -> Void,
                                   _ isCancelled: @escaping @Sendable () -> Bool) async -> Result<String, OpenFailure>

    public init(details: @escaping @Sendable (String) async -> Result<Details, OpenFailure>,
                renew: @escaping @Sendable (String) async -> Result<String, OpenFailure>,
                giveBack: @escaping @Sendable (String) async -> Result<String, OpenFailure>,
                acquire: @escaping @Sendable (String, String, @escaping @Sendable (Progress) -> Void, @escaping @Sendable () -> Bool) async -> Result<String, OpenFailure>) {
        self.details = details
        self.renew = renew
        self.giveBack = giveBack
        self.acquire = acquire
    }
}

/// Completes a path typed in a prompt (Tab): the longest common continuation of the names in
/// its folder that start with what is typed, with `/` after a folder; the candidates when
/// several remain.
public enum PathCompletion {
    public static func complete(_ typed: String, home: String? = ProcessInfo.processInfo.environment["HOME"]) -> (text: String, candidates: [String]) {
        var expanded = typed
        if typed.hasPrefix("~/"), let home { expanded = home + typed.dropFirst() }
        let folder: String, prefix: String
        if let slash = expanded.lastIndex(of: "/") {
            folder = slash == expanded.startIndex ? "/" : String(expanded[..<slash])
            prefix = String(expanded[expanded.index(after: slash)...])
        } else {
            folder = "."
            prefix = expanded
        }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted()
        guard !names.isEmpty else { return (typed, []) }
        var common = names[0]
        for name in names.dropFirst() {
            while !name.hasPrefix(common) { common.removeLast() }
        }
        var completion = String(common.dropFirst(prefix.count))
        if names.count == 1, FileKind(path: (folder == "/" ? "" : folder) + "/" + names[0]) == .directory { completion += "/" }
        return (typed + completion, names.count == 1 ? [] : names)
    }
}
