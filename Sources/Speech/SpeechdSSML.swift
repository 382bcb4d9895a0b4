extension SpeechdSpeaker {
    /// A sentence as SSML with a mark `wN` before its Nth word, and each word's range in the
    /// chapter (`chapterRange` maps a scalar offset and length in `text` to it).
    ///
    /// A word is a run of scalars between spaces; its range leaves out the punctuation at its
    /// ends (what the highlight shows). A run without a letter or digit gets no mark.
    static func ssml(_ text: String, chapterRange: (Int, Int) -> Range<Int>?) -> (String, [Range<Int>]) {
        var ssml = "<speak>"
        var words: [Range<Int>] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index].properties.isWhitespace {
                ssml.unicodeScalars.append(scalars[index])
                index += 1
                continue
            }
            var end = index
            while end < scalars.count, !scalars[end].properties.isWhitespace { end += 1 }
            let run = scalars[index..<end]
            if let first = run.firstIndex(where: isWordScalar), let last = run.lastIndex(where: isWordScalar),
               let range = chapterRange(first, last - first + 1) {
                ssml += "<mark name=\"w\(words.count)\"/>"
                words.append(range)
            }
            for scalar in run { escape(scalar, into: &ssml) }
            index = end
        }
        return (ssml + "</speak>", words)
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static func escape(_ scalar: Unicode.Scalar, into ssml: inout String) {
        switch scalar {
        case "&": ssml += "&amp;"
        case "<": ssml += "&lt;"
        case ">": ssml += "&gt;"
        case "\"": ssml += "&quot;"
        default: ssml.unicodeScalars.append(scalar)
        }
    }
}
