import Synchronization

/// Something tolerated while opening a publication: the book still opens, but a person or a
/// developer may want to know (`mimetype` not first, a dangling idref, an unknown member…).
public struct Warning: Sendable, Hashable, CustomStringConvertible {
    /// How serious the problem is.
    public enum Severity: Int, Sendable, Comparable {
        /// A deviation from the specification that changes nothing for the reader.
        case minor
        /// Something that was repaired or guessed.
        case moderate
        /// Something that will be missing or wrong in the publication.
        case major

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let severity: Severity
    public let message: String
    /// The resource concerned, when there is one.
    public let href: String?

    public init(_ message: String, severity: Severity = .moderate, href: String? = nil) {
        self.severity = severity
        self.message = message
        self.href = href
    }

    public var description: String {
        href.map { "\($0): \(message)" } ?? message
    }
}

/// Receives the warnings of an opening or parsing.
public protocol WarningLogger: Sendable {
    func log(_ warning: Warning)
}

/// Keeps every warning, in order.
public final class ListWarningLogger: WarningLogger {
    private let storage = Mutex<[Warning]>([])

    public init() {}

    public func log(_ warning: Warning) {
        storage.withLock { $0.append(warning) }
    }

    /// The warnings received so far.
    public var warnings: [Warning] { storage.withLock { $0 } }
}

extension Optional where Wrapped == any WarningLogger {
    /// Logs when a logger is present.
    public func log(_ message: String, severity: Warning.Severity = .moderate, href: String? = nil) {
        self?.log(Warning(message, severity: severity, href: href))
    }
}
