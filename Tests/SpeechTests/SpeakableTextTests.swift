import Speech
import Testing
import TextLayout

/// What is read aloud of a chapter: the reader's text, without note markers or page numbers.
@Suite struct SpeakableTextTests {
    let xhtml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="en">
        <body><h1>Chapter One</h1>
        <p>It was late.<a epub:type="noteref" href="#n1">1</a> Mr. Brown left.<span epub:type="pagebreak" id="p12" title="12">12</span> He came back.</p>
        <p xml:lang="fr">Il est parti. Fin.</p>
        <aside epub:type="footnote" id="n1"><p>A note.</p></aside>
        </body></html>
        """

    @Test func noteMarkersArePassedOverAndPageNumbersAreNotInTheText() throws {
        let document = try ContentDocumentParser.parse(html: Array(xhtml.utf8), href: "c1.xhtml")
        let text = SpeakableText(document: document)
        #expect(String(text.characters) == document.plainText)
        let sentences = text.sentences.indices.map { text.text(ofSentence: $0) }
        #expect(sentences.joined() == document.plainText)
        let spoken = text.sentences.indices.map { text.spoken(sentence: $0).text }
        #expect(spoken.contains("It was late. "))
        #expect(!spoken.joined().contains("12"))
        #expect(!spoken.joined().contains("late.1"))
        #expect(document.plainText.contains("late.1") || document.plainText.contains("late.¹"))
    }

    @Test func theLanguageOfAParagraphChoosesItsVoice() throws {
        let document = try ContentDocumentParser.parse(html: Array(xhtml.utf8), href: "c1.xhtml")
        let text = SpeakableText(document: document)
        let languages = text.sentences.indices.map { (text.spoken(sentence: $0).text, text.spoken(sentence: $0).language) }
        #expect(languages.first { $0.0.hasPrefix("Il est parti") }?.1 == "fr")
        #expect(languages.first { $0.0.hasPrefix("Mr. Brown") }?.1 == "en")
        #expect(text.spoken(sentence: 0).position?.href == "c1.xhtml")
    }
}
