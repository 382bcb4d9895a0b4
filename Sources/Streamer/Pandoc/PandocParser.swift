import FoundationEssentials
import Shared

/// Reads word processor documents (DOCX, ODT, RTF) through pandoc, when it is installed: the
/// document is converted to one HTML page in memory (nothing is written to disk), which the
/// HTML parser then reads as it reads a single `.html` file — its headings make the contents.
/// Without pandoc the document is refused with a message naming the Debian package.
///
/// Pictures inside the document are not shown (pandoc is not asked to extract them, which
/// would write them to disk); their alternative text is.
public struct PandocParser: PublicationParser {
    public init() {}

    public func parse(asset: Asset, fetcher: any Fetcher, warnings: (any WarningLogger)?) throws(PublicationParseError) -> PublicationBuilder? {
        guard let reader = Self.pandocReader(asset.format.kind) else { return nil }
        let name = asset.format.displayName
        guard !Href.isAbsoluteURL(asset.location) else {
            throw .unsupported(reason: "\(name) documents are converted by pandoc from a local file: save it and open the copy")
        }
        // A path starting with "-" would be read as an option.
        let path = asset.location.hasPrefix("-") ? "./" + asset.location : asset.location
        let html: [UInt8]
        do {
            html = try PandocProcess.run(["--from", reader, "--to", "html5", "--standalone", "--sandbox", path])
        } catch {
            throw Self.error(error, name: name, href: Href.fromPath(asset.name))
        }
        let href = Href.fromPath(asset.name)
        let page = Link(href: href, mediaType: .html)
        let document = Data(Self.identifyingHeadings(String(decoding: html, as: UTF8.self)).utf8)
        let generated = GeneratedFetcher(entries: [GeneratedFetcher.Entry(link: page) { .success(document) }], base: fetcher)
        let converted = Asset(name: asset.name, location: asset.location, format: Format(kind: .html), fetcher: generated)
        guard var builder = try HTMLParser().parse(asset: converted, fetcher: generated, warnings: warnings) else { return nil }
        builder.format = asset.format
        return builder
    }

    /// pandoc's name of its reader for a format; nil for formats it is not asked to read.
    static func pandocReader(_ kind: Format.Kind) -> String? {
        switch kind {
        case .docx: "docx"
        case .odt: "odt"
        case .rtf: "rtf"
        default: nil
        }
    }

    static func error(_ failure: PandocProcess.Failure, name: String, href: String) -> PublicationParseError {
        switch failure {
        case .notInstalled:
            return .unsupported(reason: "\(name) documents are read through pandoc, which is not installed "
                + "(install the Debian package pandoc: sudo apt install pandoc)")
        case .couldNotStart(let code):
            return .unsupported(reason: "pandoc could not be started to read this \(name) document (error \(code))")
        case .failed(let status, let message):
            let said = shown(message)
            return .invalid(href: href, reason: "pandoc could not convert it (exit status \(status))" + (said.isEmpty ? "" : ": " + said))
        case .tooLarge:
            return .invalid(href: href, reason: "its conversion by pandoc is larger than \(PandocProcess.maxOutput >> 20) MB of HTML")
        case .timedOut:
            return .invalid(href: href, reason: "its conversion by pandoc took longer than \(Int(PandocProcess.timeout)) seconds")
        }
    }

    /// pandoc's headings given an `id` where its reader made none (RTF's has no
    /// `auto_identifiers`), so that they make the contents. pandoc writes a heading without
    /// attributes as exactly `<hN>`.
    static func identifyingHeadings(_ html: String) -> String {
        var count = 0
        return html.replacing(/<h([1-4])>/) { match in
            count += 1
            return "<h\(match.output.1) id=\"lectern-heading-\(count)\">"
        }
    }

    /// pandoc's error output as one line without control characters, its end kept.
    static func shown(_ message: String) -> String {
        let line = String(String.UnicodeScalarView(message.unicodeScalars.map {
            $0.properties.generalCategory == .control || $0.properties.generalCategory == .format ? " " : $0
        }))
        let words = line.split(separator: " ").joined(separator: " ")
        return words.count > 300 ? "…" + String(words.suffix(300)) : words
    }
}
