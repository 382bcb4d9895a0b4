import FoundationEssentials
import Shared
import Streamer

/// A document that is no package — plain text, Markdown, HTML or FB2 — parsed by its parser
/// from memory (encoding detection, chapters, cmark-gfm, the FB2 tree and its pictures), then
/// used: every generated chapter and picture is read.
///
/// Input layout: the first byte picks the format (its value modulo 4: text, Markdown, FB2,
/// HTML), the rest is the file.
public enum DocumentInput {
    static let formats: [(kind: Format.Kind, name: String)] = [
        (.text, "book.txt"), (.markdown, "book.md"), (.fb2, "book.fb2"), (.html, "book.html"),
    ]

    public static func consume(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let (kind, name) = formats[Int(selector) % formats.count]
        let fetcher = MemoryFetcher([(name, Data(bytes.dropFirst()))])
        let asset = Asset(name: name, location: name, format: Format(kind: kind), fetcher: fetcher)
        var builder: PublicationBuilder?
        do {
            for parser in PublicationOpener.documentParsers where builder == nil {
                builder = try parser.parse(asset: asset, fetcher: fetcher, warnings: ListWarningLogger())
            }
        } catch {
            _ = error.userMessage
            return
        }
        HarnessInvariant.check(builder != nil, "no parser took a \(kind) document")
        guard let builder else { return }
        let publication = builder.build()
        HarnessInvariant.check(!publication.readingOrder.isEmpty, "a \(kind) document with an empty reading order")
        PublicationProbe.probe(publication)
    }
}
