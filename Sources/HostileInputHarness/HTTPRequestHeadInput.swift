import PublicationServer

/// An HTTP/1.1 request head sent to `lectern serve`: the request line, then `Name: value`
/// lines. The request line and the field syntax are SwiftNIO's (llhttp) and Hummingbird's;
/// what is Lectern's is what the server then reads in them: the `Host` check (one `Host`, one
/// of ours), the route, the rights query, `Range` with `If-Range`, `If-None-Match` and
/// `If-Modified-Since` — all run here through ``RequestHeadChecks`` on the target and fields,
/// split the way the HTTP parser hands them over.
public enum HTTPRequestHeadInput {
    /// Resource lengths the ranges are resolved against: empty, one byte, a page, a large file.
    static let lengths: [UInt64] = [0, 1, 4096, 1 << 40]

    public static func consume(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix("\r") ? line.dropLast() : line
        }
        guard !lines.isEmpty else { return }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        let target = requestLine.count > 1 ? String(requestLine[1]) : String(requestLine.first ?? "")
        var fields: [(name: String, value: String)] = []
        for line in lines {
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
        }
        for length in lengths {
            let verdict = RequestHeadChecks.evaluate(target: target, fields: fields, resourceLength: length)
            check(verdict.ranges, length: length)
        }
    }

    /// The answer's parts lie inside the resource, are not empty, do not overlap, are at most
    /// ``RequestHeadChecks/maximumRangeCount``, and together are never longer than the resource.
    static func check(_ ranges: [Range<UInt64>]?, length: UInt64) {
        guard let ranges else { return }
        HarnessInvariant.check(ranges.count <= RequestHeadChecks.maximumRangeCount, "\(ranges.count) ranges")
        var total: UInt64 = 0
        for range in ranges {
            HarnessInvariant.check(!range.isEmpty && range.upperBound <= length, "range \(range) of \(length) bytes")
            total += range.upperBound - range.lowerBound
        }
        HarnessInvariant.check(total <= length, "\(total) bytes sent of a \(length)-byte resource")
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            HarnessInvariant.check(a.upperBound <= b.lowerBound, "ranges \(a) and \(b) overlap")
        }
    }
}
