import Speech
import Testing

/// espeak-ng itself (the library the machine has; `make deps` installs it): audio in memory,
/// word events at the right text positions, the voice from the language.
@Suite struct EspeakSynthesisTests {
    func synthesizer() throws -> EspeakSpeechSynthesizer {
        try EspeakSpeechSynthesizer(environment: [:])
    }

    @Test func wordsAreReportedInOrderAtTheirTextPositions() throws {
        let engine = try synthesizer()
        let text = "The quick brown fox jumps over the lazy dog."
        let speech = try engine.synthesize(text, language: "en", speed: 1)
        #expect(speech.samples.count > engine.sampleRate / 2)
        let scalars = Array(text.unicodeScalars)
        let words = speech.words.map { String(String.UnicodeScalarView(scalars[$0.scalarOffset..<($0.scalarOffset + $0.length)])) }
        #expect(words == ["The", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog"])
        let samples = speech.words.map(\.sample)
        #expect(samples == samples.sorted())
        #expect(Set(samples).count == samples.count)
        #expect(samples.last.map { $0 < speech.samples.count } == true)
    }

    /// Sentences synthesised one at a time are separated by the pause espeak-ng puts between
    /// the sentences of one text (it ends a text without one): they must not run into each other.
    @Test func sentencesSaidOneAtATimePauseAsInOneText() throws {
        let engine = try synthesizer()
        func silences(_ samples: [Int16]) -> (leading: Int, trailing: Int, longestInside: Int) {
            let loud = samples.indices.filter { abs(Int32(samples[$0])) > 300 }
            let inside = zip(loud, loud.dropFirst()).map { $1 - $0 }.max() ?? 0
            return (loud.first ?? 0, samples.count - 1 - (loud.last ?? 0), inside)
        }
        let together = silences(try engine.synthesize("The cat sat. The dog ran.", language: "en", speed: 1).samples)
        let first = silences(try engine.synthesize("The cat sat. ", language: "en", speed: 1).samples)
        let second = silences(try engine.synthesize("The dog ran.", language: "en", speed: 1).samples)
        let apart = Double(first.trailing + second.leading) / Double(engine.sampleRate)
        let inText = Double(together.longestInside) / Double(engine.sampleRate)
        #expect(abs(apart - inText) < 0.08, "apart \(apart) s, in one text \(inText) s")
    }

    @Test func positionsCountUnicodeScalarsBeyondASCII() throws {
        let engine = try synthesizer()
        let text = "Ça coûte 3,50 € à Noël, dit-il."
        let speech = try engine.synthesize(text, language: "fr-FR", speed: 1)
        let scalars = Array(text.unicodeScalars)
        let first = try #require(speech.words.first)
        #expect(String(String.UnicodeScalarView(scalars[first.scalarOffset..<(first.scalarOffset + first.length)])) == "Ça")
        let noel = try #require(speech.words.first { String(String.UnicodeScalarView(scalars[$0.scalarOffset...].prefix(4))) == "Noël" })
        #expect(noel.length == 4)
    }

    @Test func fasterSpeechIsShorter() throws {
        let engine = try synthesizer()
        let text = "Reading aloud at twice the rate takes about half the time."
        let normal = try engine.synthesize(text, language: "en", speed: 1).samples.count
        let fast = try engine.synthesize(text, language: "en", speed: 2).samples.count
        #expect(Double(fast) < Double(normal) * 0.7)
    }

    @Test func aLanguageWithoutAVoiceFallsBackToTheDefaultOne() throws {
        let engine = try synthesizer()
        let speech = try engine.synthesize("Hello there.", language: "x-unknown-tongue", speed: 1)
        #expect(!speech.samples.isEmpty)
    }

    @Test func aNamedVoiceThatDoesNotExistIsRefusedByName() {
        #expect(throws: SpeechError.noVoice("no-such-voice")) { try EspeakSpeechSynthesizer(voice: "no-such-voice", environment: [:]) }
    }
}
