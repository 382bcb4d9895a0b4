import Shared

/// How much a catalog download may take: its size, and how long it may crawl.
///
/// A hostile or broken server can send an endless body, or a trickle that never quite stops
/// (one byte every half second defeats a "no byte for N seconds" rule): a download that passes
/// `maxBytes`, or receives fewer than `stallBytes` in `stallSeconds`, is abandoned and its file
/// removed.
public struct DownloadLimits: Sendable, Equatable {
    /// The largest body accepted, in bytes.
    public var maxBytes: Int64
    /// Seconds within which at least `stallBytes` must arrive (waiting for the answer included).
    public var stallSeconds: Double
    /// The fewest bytes that count as moving in `stallSeconds`.
    public var stallBytes: Int64

    public init(maxBytes: Int64 = DownloadLimits.defaultMaxBytes, stallSeconds: Double = DownloadLimits.defaultStallSeconds,
                stallBytes: Int64 = DownloadLimits.defaultStallBytes) {
        self.maxBytes = maxBytes
        self.stallSeconds = stallSeconds
        self.stallBytes = stallBytes
    }

    /// 2 GiB: more than any e-book, audiobooks included, that a catalog offers.
    public static let defaultMaxBytes: Int64 = 2 << 30
    /// Half a minute: a real connection, however slow, moves a kilobyte in that time.
    public static let defaultStallSeconds = 30.0
    public static let defaultStallBytes: Int64 = 1024

    /// The environment variable of the size limit (`500M`, `2G`, bytes…).
    public static let maxSizeVariable = "LECTERN_DOWNLOAD_MAX_SIZE"
    /// The environment variable of the stall timeout, in seconds.
    public static let stallVariable = "LECTERN_DOWNLOAD_STALL_SECONDS"

    /// The limits the environment sets (the defaults for what it does not); the message of a
    /// value that cannot be used, for the caller to show.
    public static func fromEnvironment(_ environment: [String: String]) -> Result<DownloadLimits, DownloadLimitsError> {
        var limits = DownloadLimits()
        if let text = environment[maxSizeVariable], !text.isEmpty {
            guard let bytes = size(text) else { return .failure(DownloadLimitsError(variable: maxSizeVariable, value: text)) }
            limits.maxBytes = bytes
        }
        if let text = environment[stallVariable], !text.isEmpty {
            guard let seconds = Double(text.trimmed), seconds > 0, seconds.isFinite else {
                return .failure(DownloadLimitsError(variable: stallVariable, value: text))
            }
            limits.stallSeconds = seconds
        }
        return .success(limits)
    }

    /// A size written as bytes or with a K, M or G suffix (powers of 1024, an optional `B` or
    /// `iB` after it): `1048576`, `512K`, `500M`, `2G`, `1.5GiB`. Nil for anything else, zero
    /// or negative.
    public static func size(_ text: String) -> Int64? {
        var number = text.trimmed.uppercased()
        if number.hasSuffix("IB") { number.removeLast(2) } else if number.hasSuffix("B") { number.removeLast() }
        var scale: Double = 1
        switch number.last {
        case "K": scale = 1024
        case "M": scale = 1024 * 1024
        case "G": scale = 1024 * 1024 * 1024
        default: break
        }
        if scale > 1 { number.removeLast() }
        guard let value = Double(number.trimmed), value.isFinite, value > 0 else { return nil }
        let bytes = value * scale
        guard bytes >= 1, bytes < Double(Int64.max / 2) else { return nil }
        return Int64(bytes)
    }
}

/// An environment variable of ``DownloadLimits`` with a value that cannot be used.
public struct DownloadLimitsError: Error, Sendable, CustomStringConvertible {
    public let variable: String
    public let value: String

    public var description: String {
        variable == DownloadLimits.maxSizeVariable
            ? "\(variable)=\(value): give a size such as 500M or 2G"
            : "\(variable)=\(value): give a number of seconds greater than 0"
    }
}
