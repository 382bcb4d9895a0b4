import Foundation
@testable import AudiobookDRM
import LibCrypto
import Shared
import Testing
import TestSupport

/// The canonical form a Feedbooks signature covers, on the real vector and on documents made
/// to exercise each rule, compared with Python's `json.dumps` (the reference rendering).
@Suite struct CanonicalFormTests {
    func canonical(_ data: Data) throws -> [UInt8] {
        SignedManifestCanonicalForm.bytes(SignedManifestCanonicalForm.unsigned(try JSONParser.parse(data)))
    }

    @Test func theRealManifestGivesTheKnownBytes() throws {
        let bytes = try canonical(DRMTestKit.vectorBytes("feedbooks_2.json"))
        #expect(bytes.count == 21_936)
        #expect(Digest.sha256(bytes).hexString == "597ee5357072e43e2ef88229c2d5708bfc4fe0fb8d675e4fde1d5b1f589ce533")
        #expect(String(decoding: bytes.prefix(80), as: UTF8.self)
            .hasPrefix(#"{"@context":"http://readium.org/webpub/default.jsonld","links":[{"href":"http://"#))
        #expect(!String(decoding: bytes, as: UTF8.self).contains(FeedbooksVocabulary.signatureKey))
        // The rights object keeps its `"start": null`.
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""http://www.feedbooks.com/audiobooks/rights":{"end":"2020-02-19T00:00:00Z","start":null}"#))
    }

    @Test func itMatchesPythonOnAGeneratedManifest() throws {
        let manifest = DRMTestKit.manifestJSON()
        let ours = try canonical(manifest)
        let python = try AudiobookSigner.canonicalBytes(manifest)
        #expect(ours == [UInt8](python))
        let text = String(decoding: ours, as: UTF8.self)
        #expect(text.contains("voix/lecture «Ève»"))
        #expect(!text.contains("\\/"))
        #expect(text.contains(#""duration":567.3"#))
    }

    @Test func onlyTheMetadataSignatureIsRemoved() throws {
        let json = try JSONParser.parse(#"{"signature": 1, "metadata": {"http://www.feedbooks.com/audiobooks/signature": {"value": "x"}, "b": 2}, "z": {"http://www.feedbooks.com/audiobooks/signature": 3}}"#)
        let text = String(decoding: SignedManifestCanonicalForm.bytes(SignedManifestCanonicalForm.unsigned(json)), as: UTF8.self)
        #expect(text == #"{"metadata":{"b":2},"signature":1,"z":{"http://www.feedbooks.com/audiobooks/signature":3}}"#)
    }

    @Test func escapeVariantsMatchTheWritersTheyName() throws {
        let json = try JSONParser.parse(#"{"metadata": {}, "t": "a\nb\u0001c\u2028d\"e\\f\tg"}"#)
        let primary = SignedManifestCanonicalForm.bytes(json)
        #expect(String(decoding: primary, as: UTF8.self) == #"{"metadata":{},"t":"a\nb\u0001c\u2028d\"e\\f\tg"}"#)
        let python = SignedManifestCanonicalForm.EscapeStyle.python.rewrite(primary)
        #expect(String(decoding: python, as: UTF8.self) == "{\"metadata\":{},\"t\":\"a\\nb\\u0001c\u{2028}d\\\"e\\\\f\\tg\"}")
        #expect(python == [UInt8](try Command.python(
            "import json,sys; sys.stdout.buffer.write(json.dumps(json.loads(sys.stdin.read()), sort_keys=True, separators=(',',':'), ensure_ascii=False).encode())",
            input: Data(#"{"metadata": {}, "t": "a\nb\u0001c\u2028d\"e\\f\tg"}"#.utf8))))
        let lcp = SignedManifestCanonicalForm.EscapeStyle.lcp.rewrite(primary)
        #expect(String(decoding: lcp, as: UTF8.self) == "{\"metadata\":{},\"t\":\"a\\u000Ab\\u0001c\u{2028}d\\\"e\\\\f\\u0009g\"}")
        // A backslash followed by `n` in the text is not a newline escape.
        let tricky = try JSONParser.parse(#"{"t": "\\n\\u2028"}"#)
        let trickyBytes = SignedManifestCanonicalForm.bytes(tricky)
        #expect(SignedManifestCanonicalForm.EscapeStyle.lcp.rewrite(trickyBytes) == trickyBytes)
    }

    @Test func variantsAreOfferedOnlyWhenTheDocumentNeedsThem() throws {
        let plain = SignedManifestCanonicalForm.candidates(of: try JSONParser.parse(#"{"a": 1, "b": "x/y"}"#))
        #expect(plain.count == 1)
        let fractional = SignedManifestCanonicalForm.candidates(of: try JSONParser.parse(#"{"a": 567.30}"#)).map { String(decoding: $0(), as: UTF8.self) }
        #expect(fractional == [#"{"a":567.30}"#, #"{"a":567.3}"#, #"{"a":5.673E2}"#])
        let both = SignedManifestCanonicalForm.candidates(of: try JSONParser.parse(#"{"a": 0.5, "b": "\n"}"#))
        #expect(both.count == 9)
    }

    @Test func scientificNotation() {
        #expect(SignedManifestCanonicalForm.scientific(567.3) == "5.673E2")
        #expect(SignedManifestCanonicalForm.scientific(0.5) == "5E-1")
        #expect(SignedManifestCanonicalForm.scientific(-1234.5) == "-1.2345E3")
        #expect(SignedManifestCanonicalForm.scientific(1e20) == "1E20")
        #expect(SignedManifestCanonicalForm.scientific(0.000125) == "1.25E-4")
        #expect(SignedManifestCanonicalForm.scientific(0) == "0E0")
    }

    @Test func duplicateMembersAreFoundAtAnyDepth() throws {
        #expect(!SignedManifestCanonicalForm.hasDuplicateMembers(try JSONParser.parse(DRMTestKit.vectorBytes("feedbooks_2.json"))))
        #expect(SignedManifestCanonicalForm.hasDuplicateMembers(try JSONParser.parse(#"{"a": [{"b": 1, "b": 2}]}"#)))
        #expect(SignedManifestCanonicalForm.hasDuplicateMembers(try JSONParser.parse(#"{"metadata": {"title": "a"}, "metadata": {}}"#)))
    }
}
