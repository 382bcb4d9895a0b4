/// The temporal dimension of a Media Fragments URI (`#t=…`, W3C Media Fragments 1.0 §4.2.1),
/// as audiobook tables of contents use it: `t=80`, `t=npt:80`, `t=1:20.5`, `t=80,120`, `t=,20`.
public enum MediaFragment {
    /// The start time in seconds of `fragment` (without `#`; other `&`-joined dimensions are
    /// ignored); nil when it has no valid `t=`. An empty start (`t=,20`) is 0.
    public static func start(in fragment: String) -> Double? {
        for parameter in fragment.split(separator: "&") {
            guard parameter.hasPrefix("t=") else { continue }
            var value = parameter.dropFirst(2)
            if value.hasPrefix("npt:") { value = value.dropFirst(4) }
            guard !value.isEmpty else { return nil }
            let start = value.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            if start.isEmpty { return 0 }
            return clockValue(start)
        }
        return nil
    }

    /// The fragment for a start time: `t=12.5`.
    public static func fragment(start: Double) -> String { "t=" + TimeText.seconds(start) }

    /// `ss[.f]`, `mm:ss[.f]` or `hh:mm:ss[.f]` in seconds; nil when malformed or negative.
    static func clockValue(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0.0
        for (index, part) in parts.enumerated() {
            let isLast = index == parts.count - 1
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && ($0.isNumber || (isLast && $0 == ".")) }),
                  let value = Double(part), value.isFinite else { return nil }
            // Minutes and seconds after a colon are below 60.
            if index > 0, value >= 60 { return nil }
            total = total * 60 + value
        }
        return total
    }
}
