import Testing
@testable import ReaderSettings
@testable import ReaderUI

/// The TOML subset `config.toml` and the theme files are read with: what it accepts gives the
/// values TOML 1.0 gives; what it refuses (or what is wrong) names the line.
struct TOMLGrammarTests {
    func parse(_ text: String) throws(TOMLError) -> [String: TOMLValue] { try TOMLParser.parse(text) }

    /// The error `text` is refused with.
    func refusal(_ text: String) -> TOMLError? {
        do { _ = try TOMLParser.parse(text); return nil } catch { return error }
    }

    @Test func basicStringsWithEscapes() throws {
        let table = try parse(#"""
            newline = "a\nb"
            quote = "say \"hi\""
            backslash = "C:\\books"
            tab = "a\tb"
            accent = "caf\u00E9"
            astral = "\U0001F600"
            escape = "\e[1m"
            """#)
        #expect(table["newline"] == .string("a\nb"))
        #expect(table["quote"] == .string("say \"hi\""))
        #expect(table["backslash"] == .string("C:\\books"))
        #expect(table["tab"] == .string("a\tb"))
        #expect(table["accent"] == .string("café"))
        #expect(table["astral"] == .string("😀"))
        #expect(table["escape"] == .string("\u{1B}[1m"))
    }

    @Test func literalStringsKeepBackslashes() throws {
        let table = try parse(#"""
            path = 'C:\books\new'
            quote = 'say "hi"'
            hash = 'not # a comment'
            """#)
        #expect(table["path"] == .string(#"C:\books\new"#))
        #expect(table["quote"] == .string(#"say "hi""#))
        #expect(table["hash"] == .string("not # a comment"))
    }

    @Test func badEscapesAndStringsNameTheirLine() {
        #expect(refusal("a = 1\nb = \"x\\qy\"\n") == TOMLError(line: 2, message: "invalid escape \\q"))
        #expect(refusal("a = 1\n\nb = \"\\uD800\"\n") == TOMLError(line: 3, message: "invalid \\u escape"))
        #expect(refusal("a = \"\\u00G9\"") == TOMLError(line: 1, message: "invalid \\u escape"))
        #expect(refusal("a = \"\\u00") == TOMLError(line: 1, message: "truncated \\u escape"))
        #expect(refusal("a = 1\nb = \"open\nc = 2\n") == TOMLError(line: 2, message: "unterminated string"))
        #expect(refusal("a = \"\"\"x\"\"\"") == TOMLError(line: 1, message: "multi-line strings are not supported"))
    }

    @Test func integersAndBooleans() throws {
        let table = try parse("a = 42\nb = -17\nc = +3\nd = 1_000_000\ne = true\nf = false\ng = 0\n")
        #expect(table["a"] == .integer(42))
        #expect(table["b"] == .integer(-17))
        #expect(table["c"] == .integer(3))
        #expect(table["d"] == .integer(1_000_000))
        #expect(table["e"] == .boolean(true))
        #expect(table["f"] == .boolean(false))
        #expect(table["g"] == .integer(0))
    }

    /// Floats, dates, and words that are no value are refused, with the line.
    @Test func unsupportedValuesAreRefusedWithTheirLine() {
        #expect(refusal("a = 1\nb = 1.5\n") == TOMLError(line: 2, message: "unsupported value \"1.5\""))
        #expect(refusal("a = 1979-05-27\n") == TOMLError(line: 1, message: "unsupported value \"1979-05-27\""))
        #expect(refusal("\n\na = yes\n") == TOMLError(line: 3, message: "unsupported value \"yes\""))
        #expect(refusal("a = True") == TOMLError(line: 1, message: "unsupported value \"True\""))
        #expect(refusal("a =\n") == TOMLError(line: 1, message: "expected a value"))
        #expect(refusal("a = 1 2\n") == TOMLError(line: 1, message: "unexpected text after the value"))
        #expect(refusal("a 1\n") == TOMLError(line: 1, message: "expected = after the key"))
    }

    @Test func tablesAndDottedKeys() throws {
        let table = try parse("""
            top = 1
            [reader]
            theme = "dark"
            margins.left = 2
            margins.right = 3
            [keys.reader]
            quit = "q"
            "page down" = ["space", "j"]
            [keys]
            help = "?"
            """)
        #expect(table["top"] == .integer(1))
        #expect(table["reader"]?["theme"] == .string("dark"))
        #expect(table["reader"]?["margins"] == .table(["left": .integer(2), "right": .integer(3)]))
        #expect(table["keys"]?["reader"]?["quit"] == .string("q"))
        #expect(table["keys"]?["reader"]?["page down"]?.strings == ["space", "j"])
        #expect(table["keys"]?["help"] == .string("?"))
        #expect(try parse("a . 'b c' . \"d\" = 1")["a"]?["b c"]?["d"] == .integer(1))
    }

    @Test func arraysSpanLinesAndHoldComments() throws {
        let table = try parse("""
            empty = []
            one = "x"
            nested = [[1, 2], ["a"], []]
            long = [
              "a",  # the first
              'b',
              true, 3,   # mixed, as TOML 1.0 allows
            ]
            """)
        #expect(table["empty"] == .array([]))
        #expect(table["one"]?.strings == ["x"])
        #expect(table["nested"] == .array([.array([.integer(1), .integer(2)]), .array([.string("a")]), .array([])]))
        #expect(table["long"] == .array([.string("a"), .string("b"), .boolean(true), .integer(3)]))
        #expect(refusal("a = [1, 2\nb = 3\n")?.message == "expected , or ] in the array")
    }

    @Test func inlineTablesAndArraysOfTablesAreRefusedWithTheirLine() {
        #expect(refusal("a = 1\nb = { c = 1 }\n") == TOMLError(line: 2, message: "inline tables are not supported"))
        #expect(refusal("a = 1\n\n[[books]]\n") == TOMLError(line: 3, message: "arrays of tables are not supported"))
    }

    @Test func commentsAndBlankLinesAreIgnored() throws {
        let table = try parse("# a comment\n\n   \t\na = 1 # after a value\n  # indented\n[t] # after a header\nb = \"#\" #\n")
        #expect(table == ["a": .integer(1), "t": .table(["b": .string("#")])])
        #expect(try parse("a = 1\r\nb = 2\r\n") == ["a": .integer(1), "b": .integer(2)])
        #expect(try parse("") == [:])
    }

    @Test func duplicatesAreRefusedWithTheLineOfTheSecond() {
        #expect(refusal("a = 1\nb = 2\na = 3\n") == TOMLError(line: 3, message: "key \"a\" defined twice"))
        #expect(refusal("[t]\nx = 1\n[u]\n[t]\ny = 2\n") == TOMLError(line: 4, message: "table [t] defined twice"))
        #expect(refusal("[t]\nx = 1\nx = 2") == TOMLError(line: 3, message: "key \"x\" defined twice"))
        // A key that is a value cannot also be a table.
        #expect(refusal("a = 1\na.b = 2\n") == TOMLError(line: 2, message: "\"a\" is not a table"))
        #expect(refusal("a = 1\n[a]\n") == TOMLError(line: 2, message: "key \"a\" defined twice"))
    }
}
