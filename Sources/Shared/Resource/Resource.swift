import FoundationEssentials

/// Read access to one resource of a publication. Content is fetched lazily, so a resource is
/// always returned by a fetcher and its errors surface when it is read.
///
/// Reads are synchronous: call them from a background task, never from the interface thread.
public protocol Resource: AnyObject, Sendable {
    /// The link the resource was requested with, possibly enriched (e.g. with the HTTP
    /// `Content-Type`).
    var link: Link { get }

    /// The length of the content in bytes: a hint from metadata when available, which may
    /// differ from what reading gives.
    var length: ResourceResult<UInt64> { get }

    /// Reads `range` of the content, or all of it when `range` is nil. Out-of-range bounds
    /// are clamped to the content.
    func read(range: Range<UInt64>?) -> ResourceResult<Data>

    /// Releases what the resource holds (file handles, caches).
    func close()
}

/// A function that wraps a resource to change its content (decrypt, deobfuscate, inject…);
/// it returns the resource unchanged when the transformation does not apply.
public typealias ResourceTransformer = @Sendable (any Resource) -> any Resource

extension Resource {
    /// Reads the whole content.
    public func read() -> ResourceResult<Data> { read(range: nil) }

    /// Reads the whole content as text, decoded with `encoding`, else the `charset` of the
    /// link's media type, else UTF-8 (a UTF-8/UTF-16 byte-order mark wins over both).
    public func readAsString(encoding: TextEncoding? = nil) -> ResourceResult<String> {
        read().flatMap { data in
            let chosen = encoding ?? link.mediaType?.charset.flatMap(TextEncoding.init(charset:)) ?? .utf8
            return .success(chosen.decode(data))
        }
    }

    /// Reads the whole content as JSON.
    public func readAsJSON() -> ResourceResult<JSONValue> {
        read().flatMap { data in
            do { return .success(try JSONParser.parse(data)) } catch { return .failure(.other(error)) }
        }
    }
}

/// The character encodings Lectern decodes without full Foundation.
public enum TextEncoding: Sendable, Hashable {
    case utf8, utf16LittleEndian, utf16BigEndian, isoLatin1, windows1252, ascii

    /// The encoding for an IANA charset name; nil when unknown (callers fall back to UTF-8).
    public init?(charset: String) {
        switch charset.uppercased() {
        case "UTF-8", "UTF8": self = .utf8
        case "UTF-16LE": self = .utf16LittleEndian
        case "UTF-16BE", "UTF-16": self = .utf16BigEndian
        case "ISO-8859-1", "LATIN1", "ISO_8859-1", "L1": self = .isoLatin1
        case "WINDOWS-1252", "CP1252": self = .windows1252
        case "US-ASCII", "ASCII": self = .ascii
        default: return nil
        }
    }

    /// Decodes `data`; a byte-order mark overrides the encoding; invalid bytes become U+FFFD.
    public func decode(_ data: some Collection<UInt8>) -> String {
        let bytes = Array(data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(decoding: bytes.dropFirst(3), as: UTF8.self) }
        if bytes.starts(with: [0xFF, 0xFE]) { return Self.utf16(bytes.dropFirst(2), littleEndian: true) }
        if bytes.starts(with: [0xFE, 0xFF]) { return Self.utf16(bytes.dropFirst(2), littleEndian: false) }
        switch self {
        case .utf8, .ascii: return String(decoding: bytes, as: UTF8.self)
        case .utf16LittleEndian: return Self.utf16(bytes[...], littleEndian: true)
        case .utf16BigEndian: return Self.utf16(bytes[...], littleEndian: false)
        case .isoLatin1: return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case .windows1252:
            return String(String.UnicodeScalarView(bytes.map { byte in
                if (0x80...0x9F).contains(byte), let mapped = Self.cp1252High[Int(byte - 0x80)] { return mapped }
                return Unicode.Scalar(byte)
            }))
        }
    }

    private static func utf16(_ bytes: ArraySlice<UInt8>, littleEndian: Bool) -> String {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let a = UInt16(bytes[index]), b = UInt16(bytes[index + 1])
            units.append(littleEndian ? (b << 8 | a) : (a << 8 | b))
            index += 2
        }
        var text = String(decoding: units, as: UTF16.self)
        // An odd trailing byte is half a code unit: invalid, like any other bad sequence.
        if index < bytes.endIndex { text.unicodeScalars.append("\u{FFFD}") }
        return text
    }

    private static let cp1252High: [Unicode.Scalar?] = [
        "\u{20AC}", nil, "\u{201A}", "\u{0192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}",
        "\u{02C6}", "\u{2030}", "\u{0160}", "\u{2039}", "\u{0152}", nil, "\u{017D}", nil,
        nil, "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}",
        "\u{02DC}", "\u{2122}", "\u{0161}", "\u{203A}", "\u{0153}", nil, "\u{017E}", "\u{0178}",
    ]
}

extension Range where Bound == UInt64 {
    /// The range clamped to `0..<length`.
    public func clamped(toLength length: UInt64) -> Range<UInt64> {
        let upper = Swift.min(upperBound, length)
        return Swift.min(lowerBound, upper)..<upper
    }
}

extension Data {
    /// The bytes of `range`, clamped to the data (`nil` = everything), as a new `Data` indexed
    /// from zero (a subscripted `Data` keeps its parent's indices, and callers index from 0).
    public func slice(_ range: Range<UInt64>?) -> Data {
        guard let range else { return startIndex == 0 ? self : Data(self) }
        let clamped = range.clamped(toLength: UInt64(count))
        let start = startIndex + Int(clamped.lowerBound)
        return Data(self[start..<(start + clamped.count)])
    }
}
