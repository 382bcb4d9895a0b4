/// The `Range: bytes=…` header of a request, resolved against a resource's length (RFC 9110
/// §14.1.2): first-last, first- and -suffix forms, several of them for `multipart/byteranges`.
enum ByteRanges: Equatable {
    /// No usable Range header (absent, another unit, malformed): the whole resource, 200.
    case whole
    /// The satisfiable ranges (each `lowerBound < upperBound`, none overlapping another):
    /// 206. In the order asked, unless some overlapped: then coalesced, in ascending order.
    case partial([Range<UInt64>])
    /// None is satisfiable: 416 with `Content-Range: bytes */LENGTH`.
    case unsatisfiable

    /// More ranges than this in one request are treated as malformed (a request of thousands
    /// of tiny ranges would cost far more than the resource).
    static let maximumCount = 32

    init(header: String?, length: UInt64) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingSpaces
        guard trimmed.lowercased().hasPrefix("bytes=") else { self = .whole; return }
        let specs = trimmed.dropFirst(6).split(separator: ",", omittingEmptySubsequences: false)
        guard !specs.isEmpty, specs.count <= Self.maximumCount else { self = .whole; return }
        var ranges: [Range<UInt64>] = []
        for spec in specs {
            let parts = spec.trimmingSpaces.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { self = .whole; return }
            let first = parts[0].trimmingSpaces, last = parts[1].trimmingSpaces
            if first.isEmpty {
                // A suffix: the last N bytes.
                guard let count = Self.number(last) else { self = .whole; return }
                if count > 0, length > 0 { ranges.append((length - min(count, length))..<length) }
            } else {
                guard let start = Self.number(first) else { self = .whole; return }
                var end = length
                if !last.isEmpty {
                    guard let lastByte = Self.number(last), lastByte >= start else { self = .whole; return }
                    end = min(lastByte == .max ? .max : lastByte + 1, length)
                }
                if start < length { ranges.append(start..<end) }
            }
        }
        self = ranges.isEmpty ? .unsatisfiable : .partial(Self.coalescedIfOverlapping(ranges))
    }

    /// The ranges as asked when none overlaps another, else merged (RFC 9110 §14.3 lets a
    /// server coalesce): `bytes=0-,0-,…` would otherwise send the resource once per range,
    /// so the body of a 206 is never longer than the resource (plus the multipart framing).
    static func coalescedIfOverlapping(_ ranges: [Range<UInt64>]) -> [Range<UInt64>] {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        guard zip(sorted, sorted.dropFirst()).contains(where: { $0.upperBound > $1.lowerBound }) else { return ranges }
        var merged: [Range<UInt64>] = []
        for range in sorted {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// A decimal number of digits only (no sign, no spaces inside).
    private static func number(_ text: Substring) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return UInt64(text)
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's optional white space).
    var trimmingSpaces: Substring {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}
