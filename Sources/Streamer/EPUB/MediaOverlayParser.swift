import FoundationEssentials
import LibXML
import Shared

/// Reads a SMIL document of EPUB 3 Media Overlays into a ``MediaOverlay``.
///
/// `body`, `seq` and `par` are matched on local name (files put them in the SMIL namespace or
/// in none); `epub:type` on namespace. Overlays come from the book, so from anyone: the size,
/// the number of phrases and the nesting are bounded, clock values are read strictly, and a
/// text or audio reference outside the publication is refused, each with a message naming the
/// line. External entities are never loaded (``XMLDocument``).
public enum MediaOverlayParser {
    /// Largest SMIL document read (a 10-hour book's chapter is a few megabytes).
    public static let maxSize = 32 << 20
    /// Most `par`s in one document.
    public static let maxPhrases = 500_000
    /// Deepest nesting of `seq`s.
    public static let maxDepth = 64

    /// Parses `data`, the SMIL document at publication href `href`, refusing more than
    /// `phraseLimit` phrases.
    public static func parse(_ data: Data, href: String, phraseLimit: Int = maxPhrases) throws(MediaOverlayError) -> MediaOverlay {
        guard data.count <= maxSize else {
            throw .tooLarge(href: href, reason: "\(data.count) bytes, more than the \(maxSize) accepted")
        }
        let document: XMLDocument
        do {
            document = try XMLDocument(xml: data, recover: false)
        } catch {
            throw .invalid(href: href, line: nil, reason: "not well-formed XML (\(error))")
        }
        let root = document.root
        guard root.localName == "smil" else {
            throw .invalid(href: href, line: root.line, reason: "the root element is <\(root.localName)>, not <smil>")
        }
        guard let body = root.firstChild(named: "body") else {
            throw .invalid(href: href, line: root.line, reason: "it has no <body>")
        }
        var walker = Walker(href: href, phraseLimit: phraseLimit)
        try walker.visit(body, types: [], depth: 0)
        return MediaOverlay(href: href, phrases: walker.phrases)
    }

    private struct Walker {
        let href: String
        let phraseLimit: Int
        var phrases: [MediaOverlayPhrase] = []

        mutating func visit(_ container: XMLElement, types: [String], depth: Int) throws(MediaOverlayError) {
            guard depth < MediaOverlayParser.maxDepth else {
                throw .tooLarge(href: href, reason: "<seq> nested deeper than \(MediaOverlayParser.maxDepth) levels (line \(container.line))")
            }
            let types = types + MediaOverlayParser.types(of: container)
            for child in container.children {
                switch child.localName {
                case "seq": try visit(child, types: types, depth: depth + 1)
                case "par": try addPhrase(child, types: types)
                default: continue
                }
            }
        }

        mutating func addPhrase(_ par: XMLElement, types: [String]) throws(MediaOverlayError) {
            guard phrases.count < phraseLimit else {
                throw .tooLarge(href: href, reason: "more than \(phraseLimit) <par> elements")
            }
            guard let text = par.firstChild(named: "text") else {
                throw .invalid(href: href, line: par.line, reason: "a <par> has no <text>")
            }
            guard let src = text.attribute("src")?.trimmed.nilIfEmpty else {
                throw .invalid(href: href, line: text.line, reason: "a <text> has no src")
            }
            let target = try resolve(src, line: text.line)
            var clip: MediaOverlayClip?
            if let audio = par.firstChild(named: "audio") {
                guard let audioSrc = audio.attribute("src")?.trimmed.nilIfEmpty else {
                    throw .invalid(href: href, line: audio.line, reason: "an <audio> has no src")
                }
                let begin = try clock(audio, "clipBegin") ?? 0
                let end = try clock(audio, "clipEnd")
                if let end, end < begin {
                    throw .invalid(href: href, line: audio.line,
                                   reason: "clipEnd (\(secondsText(end))) comes before clipBegin (\(secondsText(begin)))")
                }
                clip = MediaOverlayClip(href: Href.removingFragment(try resolve(audioSrc, line: audio.line)), begin: begin, end: end)
            }
            let fragment = Href.fragment(of: target).flatMap { $0.isEmpty ? nil : Href.percentDecoded($0) ?? $0 }
            phrases.append(MediaOverlayPhrase(textHref: Href.removingFragment(target), fragment: fragment, clip: clip,
                                              types: types + MediaOverlayParser.types(of: par)))
        }

        /// `src` as a publication href; a URL elsewhere is refused (an overlay plays the book's
        /// own resources).
        func resolve(_ src: String, line: Int) throws(MediaOverlayError) -> String {
            guard let resolved = EPUBHref.resolve(src, against: href), !Href.isAbsoluteURL(resolved) else {
                throw .invalid(href: href, line: line,
                               reason: "\"\(TerminalText.singleLine(String(src.prefix(200))))\" is outside the publication")
            }
            return resolved
        }

        func clock(_ element: XMLElement, _ name: String) throws(MediaOverlayError) -> Double? {
            guard let value = element.attribute(name) else { return nil }
            guard let seconds = MediaOverlayParser.clockValue(value) else {
                throw .invalid(href: href, line: element.line,
                               reason: "\(name) \"\(TerminalText.singleLine(String(value.prefix(60))))\" is not a clock value")
            }
            return seconds
        }
    }

    /// The `epub:type` tokens of `element`.
    static func types(of element: XMLElement) -> [String] {
        element.attribute("type", namespace: EPUBNamespace.ops)?.tokens ?? []
    }

    /// A SMIL 3.0 clock value in seconds, read strictly: full (`1:02:03.5`, hours of any
    /// length), partial (`02:03.5`, minutes and seconds below 60, two digits) and timecounts
    /// (`3.5`, `3.5s`, `200ms`, `2min`, `1h`); nil for anything else, negative, or beyond
    /// ``ExternalNumbers/maxDuration``.
    public static func clockValue(_ text: String) -> Double? {
        let value = text.trimmed
        guard !value.isEmpty, value.utf8.count <= 64 else { return nil }
        let seconds: Double
        if value.contains(":") {
            let parts = value.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3 else { return nil }
            var total = 0.0
            for (index, part) in parts.enumerated() {
                // Only the seconds have a fraction; minutes and seconds after a colon are two
                // digits below 60; hours have any number of digits.
                let isLast = index == parts.count - 1
                guard isLast || isDigits(part), let number = decimal(part) else { return nil }
                if index > 0 {
                    let whole = part.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0]
                    guard whole.count == 2, number < 60 else { return nil }
                }
                total = total * 60 + number
            }
            seconds = total
        } else {
            var number = Substring(value)
            var factor = 1.0
            for (suffix, scale) in [("ms", 0.001), ("min", 60.0), ("h", 3600.0), ("s", 1.0)] where value.hasSuffix(suffix) {
                number = number.dropLast(suffix.count)
                factor = scale
                break
            }
            guard let parsed = decimal(number) else { return nil }
            seconds = parsed * factor
        }
        guard seconds.isFinite, seconds >= 0, seconds <= ExternalNumbers.maxDuration else { return nil }
        return seconds
    }

    /// `digits[.digits]`, nothing else (`Double` alone would take `1e3`, `0x10` and `nan`).
    private static func decimal(_ text: Substring) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, isDigits(whole), parts.count == 1 || isDigits(parts[1]) else { return nil }
        return Double(text)
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}

/// Seconds for a message: `12.5 s`.
private func secondsText(_ seconds: Double) -> String { "\(MediaOverlayClip.format(seconds)) s" }
