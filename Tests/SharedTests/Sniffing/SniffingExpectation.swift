import Shared

/// The format a test expects: a kind and the DRM flags (nil = not a known format).
struct SniffingExpectation: Sendable, CustomStringConvertible {
    var kind: Format.Kind?
    var lcp = false
    var adept = false

    static let unknown = SniffingExpectation(kind: nil)

    static func kind(_ kind: Format.Kind, lcp: Bool = false, adept: Bool = false) -> SniffingExpectation {
        SniffingExpectation(kind: kind, lcp: lcp, adept: adept)
    }

    func matches(_ format: Format?) -> Bool {
        guard let kind else { return format == nil }
        return format?.kind == kind && format?.isLCPProtected == lcp && format?.isAdeptProtected == adept
    }

    var description: String {
        guard let kind else { return "unknown" }
        return kind.rawValue + (lcp ? "+lcp" : "") + (adept ? "+adept" : "")
    }
}

extension Optional where Wrapped == Format {
    /// "epub+lcp", "unknown": for failure messages.
    var summary: String {
        guard let format = self else { return "unknown" }
        return format.kind.rawValue + (format.isLCPProtected ? "+lcp" : "") + (format.isAdeptProtected ? "+adept" : "")
    }
}
