import Foundation
import Shared
import Streamer
import Testing
import TestSupport
import TextLayout

/// `lectern listen --tts`: the text read aloud with espeak-ng to the null output, run as a
/// process (espeak-ng synthesises for real; nothing is played).
@Suite struct ListenSpeechCommandTests {
    let lectern = LecternProcess()

    func listen(_ arguments: [String], environment: [String: String] = [:]) throws -> (LecternProcess.Result, [[String: Any]]) {
        let result = try lectern.run(["listen", "--tts", "--json", "--output", "null"] + arguments, timeout: 120, environment: environment)
        let events = result.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        return (result, events)
    }

    func events(_ events: [[String: Any]], _ name: String) -> [[String: Any]] {
        events.filter { $0["event"] as? String == name }
    }

    /// The chapters' text as the reader has it, by href.
    func chapterTexts(_ path: String) async throws -> [String: String] {
        let publication = try await PublicationOpener().open(asset: try AssetRetriever().retrieve(path: path), allowUserInteraction: false)
        defer { publication.close() }
        let loader = ContentDocumentLoader(publication: publication)
        var texts: [String: String] = [:]
        for link in publication.readingOrder {
            if let document = try? loader.load(link) { texts[document.href] = document.plainText }
        }
        return texts
    }

    func normalised(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    func writeBook() throws -> String {
        let path = Fixtures.temporaryDirectory("listen-tts") + "/speech.epub"
        try TestEPUBs.write(title: "Speech", language: "en", body: """
            <h1>A Tricky Chapter</h1>
            <p>Mr. Smith paid 3.14 dollars, e.g. at noon.<a epub:type="noteref" href="#n1">1</a> Then he left... \
            "Really?" she asked. See https://example.com/a.b for more.</p>
            <p>Dr. Watson said: "Go!" (Then he went.)<span epub:type="pagebreak" id="p2" title="2">2</span> It was 1.000,5 meters away.</p>
            <p xml:lang="fr">M. Dupont arrive. « Vraiment ? » dit-elle.</p>
            <aside epub:type="footnote" id="n1"><p>The note.</p></aside>
            """.replacingOccurrences(of: "<a epub", with: "<a xmlns:epub=\"http://www.idpf.org/2007/ops\" epub")
               .replacingOccurrences(of: "<span epub", with: "<span xmlns:epub=\"http://www.idpf.org/2007/ops\" epub")
               .replacingOccurrences(of: "<aside epub", with: "<aside xmlns:epub=\"http://www.idpf.org/2007/ops\" epub"),
            to: path)
        return path
    }

    /// The sentences, in order, cover the chapter's text exactly once; words move forward
    /// inside the sentence being said; the note marker and the page number are not said.
    @Test func sentencesCoverTheChapterExactlyOnceAndWordsMoveInOrder() async throws {
        let path = try writeBook()
        let (result, all) = try listen(["--words", "--speed", "10", path])
        #expect(result.status == 0, "\(result.stderr)")
        let texts = try await chapterTexts(path)
        let chapter = try #require(texts["OPS/c1.xhtml"], "\(texts.keys)")
        let sentences = events(all, "sentence")
        #expect(sentences.count >= 8, "\(sentences.map { $0["text"] ?? "" })")
        var expectedStart = 0
        for sentence in sentences {
            #expect(sentence["href"] as? String == "OPS/c1.xhtml")
            let start = try #require(sentence["start"] as? Int), end = try #require(sentence["end"] as? Int)
            #expect(start == expectedStart)
            expectedStart = end
            #expect(sentence["position"] is [String: Any])
        }
        #expect(expectedStart == chapter.count)
        let joined = sentences.compactMap { $0["text"] as? String }.joined()
        #expect(joined == chapter)
        #expect(normalised(joined) == normalised(chapter))
        // What is said leaves the note marker out.
        #expect(sentences.contains { ($0["spoken"] as? String)?.contains("noon. ") == true && ($0["text"] as? String)?.contains("noon.1 ") == true })
        #expect(sentences.map { $0["text"] as? String ?? "" }.contains { $0.hasPrefix("\"Really?\" she asked.") })
        #expect(sentences.contains { ($0["text"] as? String)?.hasPrefix("« Vraiment ? » dit-elle.") == true && $0["language"] as? String == "fr" })

        // Words: in order, each inside the sentence announced before it.
        var current: Range<Int>?
        var lastWordStart = -1
        var wordCount = 0
        for event in all {
            switch event["event"] as? String {
            case "sentence":
                current = (event["start"] as! Int)..<(event["end"] as! Int)
            case "word":
                let start = try #require(event["start"] as? Int), end = try #require(event["end"] as? Int)
                #expect(current.map { $0.contains(start) && end <= $0.upperBound } == true, "word \(start)..<\(end) outside \(String(describing: current))")
                #expect(start > lastWordStart)
                lastWordStart = start
                wordCount += 1
            default: break
            }
        }
        #expect(wordCount >= 40)
        let words = events(all, "word").map { event -> String in
            let characters = Array(chapter)
            return String(characters[(event["start"] as! Int)..<(event["end"] as! Int)])
        }
        #expect(words.starts(with: ["A", "Tricky", "Chapter", "Mr."]) || words.starts(with: ["A", "Tricky", "Chapter", "Mr"]), "\(words.prefix(6))")
        // The note marker "1" after "noon." and the page number "2" are never a word said.
        #expect(!words.contains("1") && !words.contains("2"), "\(words)")
        #expect(events(all, "end").first?["reason"] as? String == "ended")
    }

    /// A whole sample book: in every chapter the sentences cover its text exactly once, in order.
    @Test func theSentencesOfASampleBookCoverEachChapterExactlyOnce() async throws {
        let path = Fixtures.sample("epub/idpf-hefty-water.epub")
        let (result, all) = try listen(["--speed", "10", path])
        #expect(result.status == 0, "\(result.stderr)")
        let texts = try await chapterTexts(path)
        var byChapter: [String: [[String: Any]]] = [:]
        for sentence in events(all, "sentence") { byChapter[sentence["href"] as? String ?? "", default: []].append(sentence) }
        #expect(!byChapter.isEmpty)
        for (href, sentences) in byChapter {
            let chapter = try #require(texts[href])
            #expect(sentences.map { $0["start"] as? Int ?? -1 } == [0] + sentences.dropLast().map { $0["end"] as? Int ?? -1 })
            #expect(sentences.last?["end"] as? Int == chapter.count)
            let joined = sentences.compactMap { $0["text"] as? String }.joined()
            #expect(normalised(joined) == normalised(chapter))
        }
        #expect(events(all, "end").first?["reason"] as? String == "ended")
    }

    /// A Japanese book (Kusamakura): sentences end at 。 without spaces; the ruby readings in
    /// parentheses are not said twice.
    @Test func aJapaneseBookIsCutAtItsFullStopsAndItsRubyIsNotSaidTwice() throws {
        let path = Fixtures.sample("epub/idpf-kusamakura-preview.epub")
        let (result, all) = try listen(["--speed", "10", "--for", "4", "--start", "EPUB/xhtml/一.xhtml", path])
        #expect(result.status == 0, "\(result.stderr)")
        let sentences = events(all, "sentence")
        let texts = sentences.compactMap { $0["text"] as? String }
        #expect(texts.starts(with: ["一\n", "山路（やまみち）を登りながら、こう考えた。\n", "智（ち）に働けば角（かど）が立つ。"]), "\(texts)")
        #expect(sentences.dropFirst().first?["spoken"] as? String == "山路を登りながら、こう考えた。\n")
        #expect(sentences.allSatisfy { $0["language"] as? String == "ja" })
    }

    /// A real book, for a few seconds: each sentence is the chapter's text at its offsets.
    @Test func aRealBookIsReadFromItsFirstChapter() async throws {
        let path = Fixtures.sample("epub/idpf-childrens-literature.epub")
        let (result, all) = try listen(["--speed", "6", "--for", "3", path])
        #expect(result.status == 0, "\(result.stderr)")
        let texts = try await chapterTexts(path)
        let sentences = events(all, "sentence")
        #expect(sentences.count >= 2)
        var previous: (href: String, end: Int)?
        for sentence in sentences {
            let href = try #require(sentence["href"] as? String)
            let start = try #require(sentence["start"] as? Int), end = try #require(sentence["end"] as? Int)
            let text = Array(try #require(texts[href]))
            #expect(String(text[start..<end]) == sentence["text"] as? String)
            if let previous, previous.href == href { #expect(previous.end == start) }
            previous = (href, end)
        }
        #expect(events(all, "end").first?["reason"] as? String == "time")
    }

    /// A sentence's `position` given back as --start resumes at that sentence; an href starts
    /// at its chapter; a place in no chapter is refused.
    @Test func aSentencePositionResumesThere() throws {
        let path = try writeBook()
        let (first, all) = try listen(["--speed", "10", path])
        #expect(first.status == 0, "\(first.stderr)")
        let sentences = events(all, "sentence")
        let third = try #require(sentences.dropFirst(3).first)
        let position = try #require(third["position"] as? [String: Any])
        let json = String(decoding: try JSONSerialization.data(withJSONObject: position), as: UTF8.self)
        let (resumed, again) = try listen(["--speed", "10", "--start", json, path])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let start = try #require(events(again, "sentence").first)
        #expect(start["start"] as? Int == third["start"] as? Int)
        #expect(start["text"] as? String == third["text"] as? String)

        let byHref = try listen(["--speed", "10", "--for", "0.5", "--start", "OPS/c1.xhtml", path]).1
        #expect(events(byHref, "sentence").first?["start"] as? Int == 0)
        let nowhere = try listen(["--start", "missing.xhtml", path]).0
        #expect(nowhere.status == 2)
        #expect(nowhere.stderr.contains("--start"))
    }

    /// Without libespeak-ng, or without its voice data, the message names the Debian packages.
    @Test func aMissingSpeechEngineNamesTheDebianPackages() throws {
        let path = try writeBook()
        let noLibrary = try listen([path], environment: ["LECTERN_ESPEAK_LIBRARY": "/nonexistent/libespeak-ng.so.1"]).0
        #expect(noLibrary.status == 1)
        for package in ["espeak-ng", "libespeak-ng1", "espeak-ng-data"] { #expect(noLibrary.stderr.contains(package), "\(noLibrary.stderr)") }
        #expect(noLibrary.stderr.contains("not installed") || noLibrary.stderr.contains("could not be loaded"))

        let empty = Fixtures.temporaryDirectory("espeak-empty-data")
        let noData = try listen([path], environment: ["LECTERN_ESPEAK_DATA": empty]).0
        #expect(noData.status == 1)
        #expect(noData.stderr.contains("voice data"), "\(noData.stderr)")
        for package in ["espeak-ng-data", "libespeak-ng1"] { #expect(noData.stderr.contains(package)) }
    }

    /// Reading aloud is not copying: an LCP book is read with its passphrase; without it, the
    /// refusal gives the protection's reason.
    @Test func anLCPBookIsReadAloudOnceUnlockedAndRefusedWithTheReasonOtherwise() throws {
        let path = Fixtures.sample("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub")
        let locked = try listen([path]).0
        #expect(locked.status == 3)
        #expect(locked.stderr.contains("LCP") || locked.stderr.contains("passphrase"), "\(locked.stderr)")
        let (unlocked, all) = try listen(["--passphrase", "dan", "--speed", "6", "--for", "2", path])
        #expect(unlocked.status == 0, "\(unlocked.stderr)")
        #expect(!events(all, "sentence").isEmpty)
    }

    /// Writing a protected book's words out is copying: `--json` prints them through its copy
    /// right, consuming what it prints; with the allowance used up, each sentence keeps its
    /// place without the words, and standard error says why (`lectern text` refuses alike).
    @Test func anLCPBooksWordsArePrintedOnlyWithinItsCopyAllowance() throws {
        let path = Fixtures.sample("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub")
        let used = try lectern.run(["consume-rights", path, "--passphrase", "dan", "--copy", String(repeating: "x", count: 2048)])
        #expect(used.status == 0, "\(used.stderr)")
        let (result, all) = try listen(["--passphrase", "dan", "--speed", "6", "--for", "2", path])
        #expect(result.status == 0, "\(result.stderr)")
        let sentences = events(all, "sentence")
        #expect(!sentences.isEmpty)
        #expect(sentences.allSatisfy { $0["text"] == nil && $0["spoken"] == nil && $0["start"] is Int }, "\(result.stdout)")
        #expect(!result.stdout.contains("cruellest"))
        #expect(result.stderr.contains("copying"), "\(result.stderr)")
    }

    @Test func aBookWithoutTextIsRefused() throws {
        let result = try listen([Fixtures.sample("audiobook/derived-w3c-mol-navigation.audiobook")]).0
        #expect(result.status == 2)
        #expect(result.stderr.contains("no text to read aloud"))
    }
}
