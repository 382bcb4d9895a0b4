@testable import Speech
import Testing

/// The SSML a sentence becomes for speech-dispatcher (#33): a book's text is untrusted, so
/// markup characters in it are escaped (a `<mark>` or `</speak>` in the text stays text), and
/// each word, and only each word, gets its mark (its range without the punctuation at its ends).
@Suite struct SpeechdSSMLTests {
    @Test func markupInTheTextIsEscapedAndEachWordMarked() throws {
        let text = #"Say <mark name="w9"/> & "quit" </speak> now."#
        let (ssml, words) = SpeechdSpeaker.ssml(text) { offset, length in offset..<(offset + length) }
        #expect(!ssml.contains("<mark name=\"w9\"/>"), "the text's own tag was escaped: \(ssml)")
        for escaped in ["&lt;mark", "&quot;w9&quot;/&gt;", "&amp;", "&quot;quit&quot;", "&lt;/speak&gt;"] {
            #expect(ssml.contains(escaped), "\(escaped) in \(ssml)")
        }
        // One document element, and the marks are the words' (the "&" run has no letter): with
        // the marks and the element taken out, no markup character is left.
        #expect(ssml.hasPrefix("<speak>") && ssml.hasSuffix("</speak>"), "\(ssml)")
        let marks = ssml.matches(of: /<mark name="(w[0-9]+)"\/>/).map { String($0.output.1) }
        #expect(marks == (0..<words.count).map { "w\($0)" }, "\(ssml)")
        let rest = ssml.dropFirst("<speak>".count).dropLast("</speak>".count).replacing(/<mark name="w[0-9]+"\/>/, with: "")
        #expect(!rest.contains("<") && !rest.contains(">") && !rest.contains("\""), "\(rest)")
        let scalars = Array(text.unicodeScalars)
        #expect(words.map { String(String.UnicodeScalarView(scalars[$0])) } == ["Say", "mark", "name=\"w9", "quit", "speak", "now"],
                "\(words)")
    }
}
