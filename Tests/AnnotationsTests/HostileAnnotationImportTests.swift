import Annotations
import FoundationEssentials
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Files of annotations made to hurt: each gets a clear error or a defined outcome, and
/// nothing else in the file is lost.
@Suite struct HostileAnnotationImportTests {

    static func read(_ text: String, fileName: String = "in.json") throws(AnnotationImportError) -> [AnnotatedPublication] {
        try AnnotationImporter.read(Data(text.utf8), fileName: fileName, timeZone: TimeZone(identifier: "UTC")!)
    }

    @Test func malformedJSONIsAClearError() {
        #expect {
            try Self.read(#"{"type": "AnnotationSet", "items": [ {"id": "x", "#)
        } throws: { error in
            guard case .malformedJSON = error as? AnnotationImportError else { return false }
            return (error as? AnnotationImportError)?.message.hasPrefix("The file is not valid JSON") == true
        }
        #expect(throws: AnnotationImportError.unrecognizedFormat(fileName: "in.json")) { try Self.read(#"{"hello": "world"}"#) }
        #expect(throws: AnnotationImportError.unrecognizedFormat(fileName: "notes.txt")) { try Self.read("just some text", fileName: "notes.txt") }
        #expect(throws: AnnotationImportError.invalidStructure("the annotation set has no \"items\" array")) {
            try Self.read(#"{"type": "AnnotationSet"}"#)
        }
    }

    @Test func aFileLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let path = Fixtures.temporaryDirectory("huge-annotations") + "/huge.annotation"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("{".utf8)))
        // Sparse: the size is there, the bytes are not (nothing is allocated on the disk).
        #expect(truncate(path, off_t(AnnotationImporter.maximumFileSize + 1)) == 0)
        #expect(throws: AnnotationImportError.tooLarge(bytes: AnnotationImporter.maximumFileSize + 1, limit: AnnotationImporter.maximumFileSize)) {
            try AnnotationImporter.read(contentsOf: path)
        }
        #expect(AnnotationImportError.tooLarge(bytes: 65 << 20, limit: 64 << 20).message.contains("at most 64 MB"))
        #expect(throws: AnnotationImportError.unreadable(path: path + ".missing", reason: "there is no such file")) {
            try AnnotationImporter.read(contentsOf: path + ".missing")
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deepJSON = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect {
            try Self.read(deepJSON)
        } throws: { error in
            if case .malformedJSON = error as? AnnotationImportError { return true }
            return false
        }
        let deepLua = "return " + String(repeating: "{", count: 100_000) + String(repeating: "}", count: 100_000)
        #expect {
            try Self.read(deepLua, fileName: "metadata.epub.lua")
        } throws: { error in
            guard case .malformedLua(let detail) = error as? AnnotationImportError else { return false }
            return detail.contains("nested deeper than")
        }
        let minusChain = "return { " + String(repeating: "- ", count: 100_000) + "1 }"
        #expect(throws: AnnotationImportError.self) { try Self.read(minusChain, fileName: "metadata.epub.lua") }
    }

    @Test func luaThatIsCodeIsNeverRun() {
        for code in [#"return { ["annotations"] = os.execute("touch /tmp/pwned") }"#,
                     #"return { ["annotations"] = (function() return {} end)() }"#,
                     #"return { ["annotations"] = {}, x = 1 + 2 }"#,
                     #"return { ["annotations"] = { [1] = { ["text"] = "unterminated } }"#,
                     #"return { ["annotations"] = { [1] = { ["text"] = "bad \q escape" } } }"#,
                     #"return { ["annotations"] = { [1] = { ["text"] = "\300" } } }"#,
                     #"return { ["annotations"] = { [1] = { ["text"] = [==[ not closed ]=] } } }"#] {
            #expect(throws: AnnotationImportError.self, "\(code)") { try Self.read(code, fileName: "metadata.epub.lua") }
        }
        #expect(throws: AnnotationImportError.invalidStructure("the KOReader metadata has no annotations")) {
            try Self.read(#"return { ["doc_props"] = { ["title"] = "T" } }"#, fileName: "metadata.epub.lua")
        }
    }

    @Test func luaLiteralsOfEveryKindAreRead() throws {
        let lua = #"""
        -- a comment
        --[==[ a long
        comment ]==]
        return {
            annotations = {
                { drawer = "lighten", text = "dec\104\105 \x41\u{48}\z
                      joined", note = [[
        long note]], datetime = '2024-01-02 10:11:12'; page = 0x10, color = nil },
                [2] = { ["drawer"] = "invert", ["text"] = 'it\'s', ["pageno"] = -1.5e2, [true] = false },
            },
        };
        """#
        let annotations = try Self.read(lua, fileName: "metadata.epub.lua")[0].annotations
        #expect(annotations.map { $0.target.quote?.exact } == ["dechi AHjoined", "it's"])
        #expect(annotations[0].note == "long note")
        #expect(annotations[0].color == .yellow && annotations[1].style == .solid)
    }

    @Test func escapeSequencesInNotesAndQuotesAreKeptAsData() throws {
        var publication = AnnotationSamples.publication()
        let hostile = "\u{1B}]52;c;cm0gLXJmIH4=\u{07}\u{9B}31m\u{202E}reversed\u{0}nul"
        publication.annotations[0].note = hostile
        publication.annotations[0].target.quote = TextQuote(exact: hostile, prefix: "\u{1B}[2J", suffix: "\r\n")
        for format in [AnnotationExportFormat.json, .readium] {
            let data = AnnotationExporter.export([publication], as: format, generated: AnnotationSamples.created)
            #expect(!data.contains(0x1B) && !data.contains(0x07), "\(format) writes controls escaped")
            let annotation = try AnnotationImporter.read(data, fileName: "x")[0].annotations[0]
            #expect(annotation.note == hostile)
            #expect(annotation.target.quote == TextQuote(exact: hostile, prefix: "\u{1B}[2J", suffix: "\r\n"))
        }
        for format in [AnnotationExportFormat.markdown, .org] {
            let text = AnnotationSamples.text(AnnotationExporter.export([publication], as: format, generated: AnnotationSamples.created))
            #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" },
                    "\(format) shows the controls")
            #expect(text.contains("^[]52;c;cm0gLXJmIH4=^GM-^[31m<U+202E>reversed^@nul"))
        }
    }

    @Test func selectorsPointingOutsideTheBookGiveNoRangeOrAnOrphanNeverACrash() throws {
        let set = #"""
        {"@context": "http://www.w3.org/ns/anno.jsonld", "type": "AnnotationSet", "about": {"dc:title": "T"}, "items": [
          {"id": "urn:uuid:A", "type": "Annotation", "target": {"source": "c.xhtml", "selector": [
            {"type": "CssSelector", "value": "body", "refinedBy": {"type": "TextPositionSelector", "start": 1000000000000, "end": 1000000000005}}]}},
          {"id": "b", "type": "Annotation", "target": {"source": "c.xhtml", "selector": [
            {"type": "TextPositionSelector", "start": 9, "end": 3}, {"type": "ProgressionSelector", "value": 7.5}]}},
          {"id": "c", "type": "Annotation", "target": {"source": "c.xhtml", "selector": {"type": "TextPositionSelector", "start": -4, "end": 2}}},
          {"id": "d", "type": "Annotation", "target": {"source": "c.xhtml", "selector": [
            {"type": "TextPositionSelector", "start": 1e300, "end": "x"}, {"type": "TextQuoteSelector", "exact": 5}]}, "body": "not an object"},
          {"id": "e", "type": "Annotation", "target": 5},
          "not an annotation",
          {"id": "f", "type": "Annotation", "target": "c.xhtml", "body": {"type": "TextualBody", "value": "kept", "color": "#00ff00", "tag": "old"}}
        ]}
        """#
        let publication = try Self.read(set)[0]
        #expect(publication.annotations.map(\.id) == ["a", "b", "c", "d", "f"])
        #expect(publication.skipped.count == 2)
        #expect(publication.annotations[0].target.textRange == 1_000_000_000_000..<1_000_000_000_005)
        #expect(QuoteAnchoring.locate(publication.annotations[0].target, in: "A short chapter.") == .orphaned)
        #expect(publication.annotations[1].target.textRange == nil && publication.annotations[1].target.progression == nil)
        #expect(publication.annotations[2].target.textRange == nil)
        #expect(publication.annotations[3].target.textRange == nil && publication.annotations[3].target.quote == nil)
        #expect(publication.annotations[4].note == "kept" && publication.annotations[4].color == .green && publication.annotations[4].tags == ["old"])
    }

    @Test func aHundredThousandAnnotationsAreExportedAndImported() throws {
        let publication = AnnotationSamples.many(100_000)
        let clock = ContinuousClock()
        for format in [AnnotationExportFormat.json, .readium] {
            let start = clock.now
            let data = AnnotationExporter.export([publication], as: format, generated: AnnotationSamples.created)
            let imported = try AnnotationImporter.read(data, fileName: "many")
            let elapsed = clock.now - start
            #expect(imported[0].annotations.count == 100_000)
            #expect(imported[0].annotations.last?.target.quote?.exact == "q99999")
            // Printed, not asserted: tests never assert a time (CI's machine is loaded).
            print("100,000 annotations, \(format): \(elapsed)")
        }
        var lua = "return {\n    [\"annotations\"] = {\n"
        for index in 0..<100_000 {
            let byte = String(index % 128)
            let escape = String(repeating: "0", count: 3 - byte.count) + byte // \ddd reads at most three digits
            lua += "        [\(index + 1)] = { [\"datetime\"] = \"2024-01-02 10:11:12\", [\"drawer\"] = \"lighten\", [\"pos0\"] = \"/body/DocFragment[1]/body/p[\(index)]/text().0\", [\"text\"] = \"q\\\(escape)\(index)\" },\n"
        }
        lua += "    },\n}\n"
        let start = clock.now
        let imported = try Self.read(lua, fileName: "metadata.epub.lua")
        let elapsed = clock.now - start
        #expect(imported[0].annotations.count == 100_000)
        print("100,000 annotations, KOReader: \(elapsed)")
    }
}
