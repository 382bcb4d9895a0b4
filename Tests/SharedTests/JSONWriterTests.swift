import Foundation
import LibCrypto
import Shared
import Testing
import TestSupport

private let canonical = JSONWriter(style: .canonical)

/// The canonical form of `value` as a string.
private func canonicalString(_ value: JSONValue) -> String { canonical.string(value) }

/// Documents given to Python, which serialises them with `sort_keys=True, separators=(',',':'),
/// ensure_ascii=False` (canonical) and `indent=2, ensure_ascii=False` (pretty): for documents
/// without control characters or U+2028/U+2029, that is the output Go's encoder gives.
private let pythonSerialiser = """
import base64, json, sys
result = {}
for path in sys.argv[1:]:
    with open(path, encoding="utf-8-sig") as handle:
        value = json.load(handle)
    canonical = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    pretty = json.dumps(value, indent=2, ensure_ascii=False)
    result[path] = [base64.b64encode(canonical.encode("utf-8")).decode(), base64.b64encode(pretty.encode("utf-8")).decode()]
print(json.dumps(result))
"""

/// A document with non-ASCII keys whose UTF-16 order differs from their UTF-8 order, and
/// the characters Go's HTML escaping would change.
private let nonASCIIDocument = """
{
  "ｚ halfwidth": "U+FF5A sorts after U+1F600 in UTF-16 but before it in UTF-8",
  "😀": ["emoji", "𝄞"],
  "é": "précomposé",
  "e\u{301}": "décomposé",
  "Z": 1,
  "a": {"b": [true, false, null], "A": -0.5, "": "empty key"},
  "html": "</script><b>&amp;</b> a/b",
  "中文": "漢字かなカナ한국어",
  "quote\\"back\\\\slash": "\\"\\\\",
  "tab": "a\\tb\\nc\\rd",
  "nested": [[[{}], []], {"z": {}, "y": []}],
  "numbers": [0, -1, 123456789012, 1.5, -2.25, 100]
}
"""

@Suite struct JSONWriterTests {
    /// JSON for people escapes DEL and the C1 controls (CSI, U+009B), so it can carry no
    /// terminal escape; the canonical form, which signatures cover, writes them raw as Go does.
    @Test func terminalControlsAreEscapedExceptInTheCanonicalForm() throws {
        let value = JSONValue.object(JSONObject(["k\u{9B}": .string("a\u{1B}[2J\u{7F}\u{85}\u{9B}5A\u{A0}é")]))
        #expect(JSONWriter().string(value) == #"{"k\u009b":"a\u001b[2J\u007f\u0085\u009b5A\#u{A0}é"}"#)
        #expect(JSONWriter(style: .pretty).string(value).contains(#""a\u001b[2J\u007f\u0085\u009b5A"#))
        #expect(JSONWriter(style: .canonical).string(value) == "{\"k\u{9B}\":\"a\\u001b[2J\u{7F}\u{85}\u{9B}5A\u{A0}é\"}")
        #expect(try JSONParser.parse(JSONWriter().string(value)) == value)
        // Bidi overrides and isolates are escaped; direction marks are not.
        let bidi = JSONValue.string("a\u{202E}b\u{2066}c\u{200F}d")
        #expect(JSONWriter().string(bidi) == #""a\u202eb\u2066c\#u{200F}d""#)
        #expect(JSONWriter(style: .canonical).string(bidi) == "\"a\u{202E}b\u{2066}c\u{200F}d\"")
    }

    @Test func compactKeepsMemberOrder() throws {
        let value = try JSONParser.parse(#" { "b" : 1 , "a" : [ true , null , "x" ] , "c" : { } , "d" : [ ] } "#)
        #expect(JSONWriter().string(value) == #"{"b":1,"a":[true,null,"x"],"c":{},"d":[]}"#)
    }

    @Test func canonicalSortsKeysByUTF8Bytes() throws {
        let value = JSONValue.object(JSONObject([
            "\u{FF5A}": .number("1"), "😀": .number("2"), "b": .number("3"), "B": .number("4"), "é": .number("5"),
            "": .number("6"), "a": .object(JSONObject(["y": .null, "x": .null])),
        ]))
        #expect(canonicalString(value) == "{\"\":6,\"B\":4,\"a\":{\"x\":null,\"y\":null},\"b\":3,\"é\":5,\"\u{FF5A}\":1,\"😀\":2}")
    }

    @Test func canonicalKeepsArrayOrderAndEmptyContainers() throws {
        let value = try JSONParser.parse(#"{"list":[3,1,2],"empty":{},"none":[]}"#)
        #expect(canonicalString(value) == #"{"empty":{},"list":[3,1,2],"none":[]}"#)
    }

    @Test(arguments: ["0", "-0", "1.50", "1E+3", "-12.5e-7", "12345678901234567890123456789", "0.000"])
    func numbersAreWrittenVerbatim(literal: String) throws {
        let value = try JSONParser.parse("[\(literal)]")
        #expect(canonicalString(value) == "[\(literal)]")
        #expect(JSONWriter(style: .pretty).string(value) == "[\n  \(literal)\n]")
    }

    @Test func htmlCharactersAndSlashAreNotEscaped() {
        #expect(canonicalString(.string("</a> & <b>")) == #""</a> & <b>""#)
    }

    @Test func shortEscapesForQuotesBackslashAndCommonControls() {
        #expect(canonicalString(.string("\"\\\n\r\t\u{08}\u{0C}")) == #""\"\\\n\r\t\b\f""#)
    }

    @Test func otherControlsUseLowerCaseUnicodeEscapes() {
        #expect(canonicalString(.string("\u{0}\u{1}\u{1F}\u{0B}\u{1B}")) == #""\u0000\u0001\u001f\u000b\u001b""#)
        // DEL and C1 controls are not escaped by Go.
        #expect(canonicalString(.string("\u{7F}\u{85}")) == "\"\u{7F}\u{85}\"")
    }

    @Test func lineAndParagraphSeparatorsAreEscaped() {
        #expect(canonicalString(.string("a\u{2028}b\u{2029}c")) == #""a\u2028b\u2029c""#)
    }

    @Test func nonASCIIIsWrittenRaw() {
        #expect(canonical.bytes(.string("é😀")) == [0x22, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80, 0x22])
    }

    @Test func stringsAreReescapedFromTheirDecodedValue() throws {
        // A delivered license may use `\/` and `\u003c`: the canonical form has `/` and `<`.
        let value = try JSONParser.parse(#"{"a":"x\/y\u003cz\u00e9"}"#)
        #expect(canonicalString(value) == #"{"a":"x/y<zé"}"#)
    }

    @Test func prettyLayout() throws {
        let value = try JSONParser.parse(#"{"a":[1,{"b":null}],"c":{},"d":[],"e":"x"}"#)
        #expect(JSONWriter(style: .pretty).string(value) == """
        {
          "a": [
            1,
            {
              "b": null
            }
          ],
          "c": {},
          "d": [],
          "e": "x"
        }
        """)
    }

    @Test func canonicalAndPrettyMatchPythonOnSamplesAndANonASCIIDocument() throws {
        let scratch = Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let synthetic = scratch + "/non-ascii.json"
        try Data(nonASCIIDocument.utf8).write(to: URL(fileURLWithPath: synthetic))
        var paths = [synthetic, Fixtures.sample("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.lcpl")]
        for folder in ["webpub", "audiobook", "audiobook-drm"] {
            let directory = Fixtures.sample(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            where name.hasSuffix(".json") && name != "jwks_2.json" {
                paths.append(directory + "/" + name)
            }
        }
        let output = try Command.python(pythonSerialiser, paths)
        let expected = try #require(try JSONSerialization.jsonObject(with: output) as? [String: [String]])
        #expect(expected.count == paths.count)
        for path in paths {
            let value = try JSONParser.parse(Fixtures.bytes(path))
            let pair = try #require(expected[path])
            let pythonCanonical = try #require(Data(base64Encoded: pair[0]))
            let pythonPretty = try #require(Data(base64Encoded: pair[1]))
            #expect(Data(canonical.bytes(value)) == pythonCanonical, "canonical form of \(path)")
            #expect(Data(JSONWriter(style: .pretty).bytes(value)) == pythonPretty, "pretty form of \(path)")
        }
    }

    @Test func writtenDocumentsParseBackToTheSameValue() throws {
        let value = try JSONParser.parse(nonASCIIDocument)
        for style in [JSONWriter.Style.compact, .pretty] {
            #expect(try JSONParser.parse(JSONWriter(style: style).bytes(value)) == value)
        }
        let controls = JSONValue.string(String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar($0)! })) + "\u{2028}\u{2029}")
        #expect(try JSONParser.parse(canonical.bytes(controls)) == controls)
    }

    // MARK: - LCP licenses: canonical SHA-256 vectors (lcp.md §20)

    static let licenseVectors: [(file: String, entry: String?, sha256: String)] = [
        ("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.lcpl", nil,
         "0f0f5a869403e69ce8c9dc838470e27a60c2565258c7130ecd90937d85eec362"),
        ("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub", "META-INF/license.lcpl",
         "0f0f5a869403e69ce8c9dc838470e27a60c2565258c7130ecd90937d85eec362"),
        ("lcp/swifttoolkit-daisy.lcpdf", "license.lcpl",
         "abd6e60cf2a930e30d1ce1acdc0b18589115dc02a6dce852ba2674de9ddb2338"),
        ("lcp/swifttoolkit-epub-lcp.epub", "META-INF/license.lcpl",
         "aea8ecf60daa93d3d29dbfa6ed227bee3d1c10802110c1b441ee88bb2c7f02d2"),
    ]

    static func licenseBytes(file: String, entry: String?) throws -> Data {
        guard let entry else { return Fixtures.bytes(Fixtures.sample(file)) }
        let fetcher = try ArchiveFetcher(path: Fixtures.sample(file))
        defer { fetcher.close() }
        return try fetcher.get(href: entry).read().get()
    }

    /// The license without its top-level `signature`, canonicalised.
    static func canonicalLicense(_ bytes: Data) throws -> [UInt8] {
        guard case .object(var object) = try JSONParser.parse(bytes) else { throw Command.Failure(description: "not an object") }
        #expect(object["signature"] != nil)
        object["signature"] = nil
        return canonical.bytes(.object(object))
    }

    @Test(arguments: licenseVectors.indices)
    func lcpLicenseCanonicalSHA256(index: Int) throws {
        let vector = Self.licenseVectors[index]
        let form = try Self.canonicalLicense(Self.licenseBytes(file: vector.file, entry: vector.entry))
        #expect(Digest.sha256(form).hexString == vector.sha256)
    }

    @Test func changingOneCharacterOrEscapingSlashChangesTheLicenseDigest() throws {
        let vector = Self.licenseVectors[0]
        let form = try Self.canonicalLicense(Self.licenseBytes(file: vector.file, entry: vector.entry))
        let text = String(decoding: form, as: UTF8.self)
        #expect(text.contains("/"))
        let escaped = text.replacingOccurrences(of: "/", with: "\\/")
        #expect(Digest.sha256(Array(escaped.utf8)).hexString != vector.sha256)
        let flipped = text.replacingOccurrences(of: "Your nickname?", with: "Your nickname!")
        #expect(flipped != text)
        #expect(Digest.sha256(Array(flipped.utf8)).hexString != vector.sha256)
        // Removing a nested `signature` would be wrong: only the top-level one goes.
        #expect(!text.contains("\"signature\":{"))
    }

    @Test func feedbooksSignedManifestCanonicalForm() throws {
        // README: manifest minus metadata[signature], keys sorted, compact: 21,936 B, sha256 597ee535…
        let value = try JSONParser.parse(Fixtures.bytes(Fixtures.sample("audiobook-drm/feedbooks_2.json")))
        guard case .object(var object) = value, case .object(var metadata)? = object["metadata"] else {
            Issue.record("not a manifest")
            return
        }
        metadata["http://www.feedbooks.com/audiobooks/signature"] = nil
        object["metadata"] = .object(metadata)
        let form = canonical.bytes(.object(object))
        #expect(form.count == 21_936)
        #expect(Digest.sha256(form).hexString == "597ee5357072e43e2ef88229c2d5708bfc4fe0fb8d675e4fde1d5b1f589ce533")
    }
}
