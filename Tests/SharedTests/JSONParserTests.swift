import Foundation
import Shared
import Testing
import TestSupport

/// Parses `text`, expecting an error; returns it.
private func parseError(_ bytes: [UInt8]) -> JSONError? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        return error
    }
}

private func parseError(_ text: String) -> JSONError? { parseError(Array(text.utf8)) }

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValueKeepingMemberOrder() throws {
        let value = try JSONParser.parse(#"{"z":null,"b":true,"a":false,"n":-1.50,"s":"x","l":[1,"2",[]],"o":{}}"#)
        let object = try #require(value.object)
        #expect(object.keys == ["z", "b", "a", "n", "s", "l", "o"])
        #expect(object["z"] == .null)
        #expect(object["b"] == .bool(true))
        #expect(object["a"] == .bool(false))
        #expect(object["n"] == .number("-1.50"))
        #expect(object["s"] == .string("x"))
        #expect(object["l"] == .array([.number("1"), .string("2"), .array([])]))
        #expect(object["o"] == .object(JSONObject()))
    }

    @Test func topLevelScalarsAreDocuments() throws {
        #expect(try JSONParser.parse("  42 ") == .number("42"))
        #expect(try JSONParser.parse("\"x\"") == .string("x"))
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("\t\r\n true \n") == .bool(true))
    }

    @Test(arguments: ["0", "-0", "1.50", "1e3", "1E+3", "-12.5e-7", "12345678901234567890123456789", "0.000", "1e-0"])
    func numberLiteralsAreKeptVerbatim(literal: String) throws {
        #expect(try JSONParser.parse("[\(literal)]") == .array([.number(literal)]))
    }

    @Test(arguments: ["01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity", "1.e3", "--1", "- 1"])
    func invalidNumbersAreErrors(literal: String) {
        #expect(parseError("[\(literal)]") != nil)
    }

    @Test func duplicateMembersAreKeptAndTheLastOneIsRead() throws {
        let object = try #require(try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#).object)
        #expect(object.members.count == 3)
        #expect(object["a"] == .number("3"))
    }

    @Test func simpleEscapes() throws {
        let value = try JSONParser.parse(#""\"\\\/\b\f\n\r\t\u00e9\u4E2D\u0000""#)
        #expect(value == .string("\"\\/\u{08}\u{0C}\n\r\té中\u{0}"))
    }

    @Test func surrogatePairsJoin() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONParser.parse(#""\uD834\uDD1E!""#) == .string("𝄞!"))
    }

    @Test(arguments: [
        (#""\ud83d""#, "\u{FFFD}"),
        (#""\ude00""#, "\u{FFFD}"),
        (#""\ude00\ud83d""#, "\u{FFFD}\u{FFFD}"),
        (#""\ud83dx""#, "\u{FFFD}x"),
        (#""\ud83d\u0041""#, "\u{FFFD}A"),
        (#""\ud83d\n""#, "\u{FFFD}\n"),
        (#""\ud83d\ud83d\ude00""#, "\u{FFFD}😀"),
        (#""a\udbff""#, "a\u{FFFD}"),
    ])
    func loneSurrogatesBecomeReplacementCharacters(json: String, expected: String) throws {
        #expect(try JSONParser.parse(json) == .string(expected))
    }

    @Test(arguments: [#""\x""#, #""\u12""#, #""\u12G4""#, #""\U0041""#, #""\ud83d\u12""#, #""\"#, #""\u"#, #""\'""#])
    func invalidEscapesAreErrors(json: String) {
        #expect(parseError(json) != nil)
    }

    @Test func leadingByteOrderMarkIsIgnored() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a":1}"#.utf8)) == .object(JSONObject(["a": .number("1")])))
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF, 0x20] + Array("[]".utf8)) == .array([]))
        // Only one mark, only at the start.
        #expect(parseError([0xEF, 0xBB, 0xBF]) != nil)
        #expect(parseError([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array("[]".utf8)) != nil)
        #expect(parseError(Array("[".utf8) + [0xEF, 0xBB, 0xBF] + Array("]".utf8)) != nil)
        // A UTF-16 mark is not JSON.
        #expect(parseError([0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00]) != nil)
    }

    @Test(arguments: [
        (#"{"a":1,}"#, 7),
        ("[1 2]", 3),
        (#"{"a" 1}"#, 5),
        (#"{"a":}"#, 5),
        ("[1,]", 3),
        ("{1:2}", 1),
        ("[] x", 3),
        ("", 0),
        ("   ", 3),
        ("[tru]", 4),
    ])
    func errorsCarryTheByteOffset(json: String, offset: Int) throws {
        let error = try #require(parseError(json))
        #expect(error.offset == offset)
        #expect(error.description.contains("byte \(offset)"))
    }

    @Test func tenThousandNestedArraysAreAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = try #require(parseError(deep))
        #expect(error.message.contains("deep"))
        let deepObjects = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(parseError(deepObjects) != nil)
        // Unbalanced: only openings.
        #expect(parseError(String(repeating: "[", count: 100_000)) != nil)
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let limit = JSONParser.maxDepth
        let atLimit = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        var value = try JSONParser.parse(atLimit)
        var depth = 0
        while let inner = value.array { depth += 1; value = inner.first ?? .null }
        #expect(depth == limit)
        let beyond = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(parseError(beyond) != nil)
        // Siblings do not add up: depth is nesting, not a count of containers.
        let wide = "[" + Array(repeating: "[[]]", count: 5_000).joined(separator: ",") + "]"
        #expect(try JSONParser.parse(wide).array?.count == 5_000)
    }

    @Test(arguments: [
        [0x22, 0xFF, 0x22] as [UInt8],                 // invalid byte
        [0x22, 0xC3, 0x22],                            // truncated sequence
        [0x22, 0xC0, 0xAF, 0x22],                      // overlong "/"
        [0x22, 0xED, 0xA0, 0x80, 0x22],                // UTF-8-encoded surrogate
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],          // beyond U+10FFFF
        [0x22, 0x80, 0x22],                            // lone continuation byte
        [0x5B, 0xFF, 0x5D],                            // invalid byte outside a string
    ])
    func invalidUTF8IsAnError(bytes: [UInt8]) {
        #expect(parseError(bytes) != nil)
    }

    /// A string without an escape is made from its bytes at once and validated only when it
    /// is not ASCII (#32): it is refused as an escaped one is, with the same message at the same
    /// offset, a truncated four-byte sequence included (its repair is as long as it).
    @Test func unescapedStringsAreRefusedAsEscapedOnes() throws {
        for bytes: [UInt8] in [[0x22, 0xF0, 0x9F, 0x98, 0x41, 0x22], [0x22, 0x41, 0xFF, 0x22], [0x22, 0xC3, 0x41, 0x22]] {
            let escaped: [UInt8] = [0x22, 0x5C, 0x6E] + bytes.dropFirst()
            #expect(parseError(bytes)?.description == "invalid JSON at byte \(bytes.count): invalid UTF-8 in string")
            #expect(parseError(escaped)?.description == "invalid JSON at byte \(escaped.count): invalid UTF-8 in string")
        }
        #expect(parseError([0x22, 0x41, 0xC3, 0xA9, 0x0A, 0x22])?.description == "invalid JSON at byte 4: control character in string")
        #expect(parseError([0x22, 0x41, 0xC3])?.description == "invalid JSON at byte 3: unterminated string")
        #expect(try JSONParser.parse([0x22, 0xF0, 0x9F, 0x98, 0x80, 0x41, 0x22]) == .string("😀A"))
    }

    @Test func validMultibyteUTF8IsAccepted() throws {
        #expect(try JSONParser.parse("[\"é中😀\u{7F}\"]") == .array([.string("é中😀\u{7F}")]))
    }

    @Test func rawControlCharactersInStringsAreErrors() {
        for byte in UInt8(0)..<0x20 {
            #expect(parseError([0x22, byte, 0x22]) != nil, "control \(byte)")
        }
    }

    @Test(arguments: ["{}{}", "[] ,", "{} x", "1 2", "null null", "\"a\"\"b\"", "{}\u{0}", "[]]", "falsey", "{}/* comment */"])
    func trailingGarbageIsAnError(json: String) throws {
        let error = try #require(parseError(json))
        #expect(error.offset > 0)
    }

    @Test(arguments: ["tru", "nul", "True", "NULL", "[fals]", "{'a':1}", "[\u{A0}1]", "[\u{0C}1]", "{a:1}"])
    func invalidTokensAreErrors(json: String) {
        #expect(parseError(json) != nil)
    }

    @Test func everyTruncationOfARealManifestIsAnError() throws {
        let bytes = Array(Fixtures.bytes(Fixtures.sample("webpub/swifttoolkit-webpub.json")))
        try #require(bytes.count > 1000)
        _ = try JSONParser.parse(bytes)
        // The document is an object, so every strict prefix is incomplete.
        for length in 0..<bytes.count where !bytes[length...].allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
            #expect(parseError(Array(bytes[..<length])) != nil, "prefix of \(length) bytes")
        }
    }

    @Test func everySampleJSONParses() throws {
        let folders = ["webpub", "audiobook", "audiobook-drm", "format-sniffing"]
        var count = 0
        for folder in folders {
            let directory = Fixtures.sample(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name.hasSuffix(".json") {
                let bytes = Fixtures.bytes(directory + "/" + name)
                if name == "jwks_2.json" || name == "opds-authentication.json" {
                    // "oops this is not really a certificate"; a trailing comma in an array.
                    #expect(parseError(Array(bytes)) != nil)
                } else {
                    _ = try JSONParser.parse(bytes)
                    count += 1
                }
            }
        }
        #expect(count >= 15)
    }
}

@Suite struct JSONValueTests {
    @Test func numericAccessors() {
        #expect(JSONValue.number("42").int == 42)
        #expect(JSONValue.number("1.0").int == 1)
        #expect(JSONValue.number("1e3").int == 1000)
        #expect(JSONValue.number("1.5").int == nil)
        #expect(JSONValue.number("1e300").int == nil)
        #expect(JSONValue.string(" 42 ").int == 42)
        #expect(JSONValue.number("1.5").double == 1.5)
        #expect(JSONValue.string("120").double == 120)
        #expect(JSONValue.bool(true).int == nil)
        #expect(JSONValue.int(-7) == .number("-7"))
        #expect(JSONValue.double(3) == .number("3"))
        #expect(JSONValue.double(0.25) == .number("0.25"))
    }

    @Test func nonFiniteNumbersNeverBecomeInvalidJSON() throws {
        // "1e999" is a valid JSON number that overflows a Double.
        #expect(JSONValue.number("1e999").double == nil)
        #expect(JSONValue.number("-1e999").double == nil)
        #expect(JSONValue.number("1e999").int == nil)
        #expect(JSONValue.string("inf").double == nil)
        #expect(JSONValue.string("nan").double == nil)
        #expect(JSONValue.double(.infinity) == .null)
        #expect(JSONValue.double(-.infinity) == .null)
        #expect(JSONValue.double(.nan) == .null)
        #expect(JSONValue.double(1e20) == .number("1e+20"))
        #expect(try JSONParser.parse(JSONWriter().bytes(.double(1e308 * 10))) == .null)
        // A manifest holding such numbers is still written back as valid JSON.
        let manifest = try Manifest(data: Array(#"{"metadata":{"duration":1e999},"readingOrder":[{"href":"a.mp3","duration":1e999,"bitrate":"nan"}]}"#.utf8))
        #expect(manifest.metadata.duration == nil)
        #expect(manifest.readingOrder[0].duration == nil)
        #expect(manifest.readingOrder[0].bitrate == nil)
        #expect(try Manifest(data: JSONWriter().bytes(manifest.json)) == manifest)
    }

    @Test func stringsFromOneOrMany() {
        #expect(JSONValue.string("a").strings == ["a"])
        #expect(JSONValue.array([.string("a"), .number("1"), .string("b")]).strings == ["a", "b"])
        #expect(JSONValue.null.strings == [])
    }

    @Test func settingAMemberIsVisibleEvenWithDuplicates() throws {
        var object = try #require(try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#).object)
        object["a"] = .number("4")
        #expect(object["a"] == .number("4"))
        #expect(object.members.filter { $0.key == "a" }.count == 1)
        object["a"] = nil
        #expect(object["a"] == nil)
        #expect(object.keys == ["b"])
        object.set("c", nil)
        #expect(object.keys == ["b"])
        object.set("c", .null)
        #expect(object.keys == ["b", "c"])
    }

    @Test func keysAreComparedByTheirExactCharacters() throws {
        // "é" precomposed and decomposed are two different JSON member names.
        var object = try #require(try JSONParser.parse("{\"\u{E9}\":1,\"e\u{301}\":2}").object)
        #expect(object["\u{E9}"] == .number("1"))
        #expect(object["e\u{301}"] == .number("2"))
        object["e\u{301}"] = nil
        #expect(object.members.count == 1)
        #expect(object["\u{E9}"] == .number("1"))
    }
}
