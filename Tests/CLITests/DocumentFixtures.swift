import Foundation
import TestSupport

/// One short book written as plain text, Markdown, HTML, FB2 and FB2.zip, and as an EPUB with
/// the same words, for the command-line tests of the document formats (#34).
enum DocumentFixtures {
    static let paragraphs = [
        "It was a dark and stormy night; the rain fell in torrents, except at occasional intervals, when it was checked by a violent gust of wind.",
        "The harbour master counted the lanterns twice and found a zeppelin among them.",
        "In the morning the quiet village woke to bells, gulls and the smell of bread.",
    ]
    static let secondChapter = ["The zebra quietly left the building before dawn, leaving only hoofprints in the frost."]

    /// The files, by format name, in a fresh folder.
    static func write() throws -> [String: String] {
        let folder = Fixtures.temporaryDirectory("document-formats")
        var paths: [String: String] = [:]
        func save(_ text: String, _ name: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
            paths[name] = folder + "/" + name
        }
        let wrapped = paragraphs.map { wrap($0) }
        try save("""
            Title: Storm Book
            Author: Ann Author
            Language: English

            *** START OF THE PROJECT GUTENBERG EBOOK STORM BOOK ***

            CHAPTER I.

            \(wrapped.joined(separator: "\n\n"))

            CHAPTER II.

            \(secondChapter.map { wrap($0) }.joined(separator: "\n\n"))

            *** END OF THE PROJECT GUTENBERG EBOOK STORM BOOK ***
            """, "storm.txt")
        try save("# CHAPTER I.\n\n" + paragraphs.joined(separator: "\n\n") + "\n\n# CHAPTER II.\n\n" + secondChapter.joined(separator: "\n\n") + "\n",
                 "storm.md")
        try save("<!DOCTYPE html><html lang=\"en\"><head><title>Storm Book</title></head><body>" + htmlBody + "</body></html>", "storm.html")
        try save(fb2, "storm.fb2")
        try ZipBuilder.write([.init("storm.fb2", fb2)], to: folder + "/storm.fb2.zip")
        paths["storm.fb2.zip"] = folder + "/storm.fb2.zip"
        try TestEPUBs.write(title: "Storm Book", body: htmlBody, to: folder + "/storm.epub")
        paths["storm.epub"] = folder + "/storm.epub"
        return paths
    }

    static var htmlBody: String {
        "<h1 id=\"c1\">CHAPTER I.</h1>" + paragraphs.map { "<p>\($0)</p>" }.joined()
            + "<h1 id=\"c2\">CHAPTER II.</h1>" + secondChapter.map { "<p>\($0)</p>" }.joined()
    }

    static var fb2: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <FictionBook xmlns="http://www.gribuser.ru/xml/fictionbook/2.0" xmlns:l="http://www.w3.org/1999/xlink">
        <description><title-info><author><first-name>Ann</first-name><last-name>Author</last-name></author>
        <book-title>Storm Book</book-title><lang>en</lang></title-info></description>
        <body><section><title><p>CHAPTER I.</p></title>\(paragraphs.map { "<p>\($0)</p>" }.joined())</section>
        <section><title><p>CHAPTER II.</p></title>\(secondChapter.map { "<p>\($0)</p>" }.joined())</section></body>
        </FictionBook>
        """
    }

    /// `text` hard-wrapped at 70 columns, as Project Gutenberg files are.
    static func wrap(_ text: String) -> String {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + word.count + 1 > 70 { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        return (lines + [line]).joined(separator: "\n")
    }

    /// The words of a render, lower-cased, without the rules under headings.
    static func words(_ render: String) -> [String] {
        render.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }

    /// The share of words found in one list and not the other (multisets).
    static func difference(_ first: [String], _ second: [String]) -> Double {
        var counts: [String: Int] = [:]
        for word in first { counts[word, default: 0] += 1 }
        for word in second { counts[word, default: 0] -= 1 }
        let differing = counts.values.map(abs).reduce(0, +)
        return Double(differing) / Double(max(first.count, second.count, 1))
    }
}
