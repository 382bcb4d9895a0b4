import Foundation
import Testing
@testable import ReaderSettings
@testable import ReaderUI
import TestSupport

/// A hostile `config.toml` ends in the defaults and a warning that names the line — never a
/// stack overflow.
struct TOMLHostileInputTests {
    func load(_ text: String) throws -> ReaderConfig {
        let path = Fixtures.temporaryDirectory("toml-hostile") + "/config.toml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return ReaderConfig.load(path: path)
    }

    @Test func deeplyNestedArraysAreRefusedWithALineNumber() throws {
        let config = try load("theme = \"dark\"\nkeys.quit = " + String(repeating: "[", count: 100_000) + "\n")
        #expect(config.warnings.count == 1)
        #expect(config.warnings.first?.contains("line 2: arrays nested more than 32 levels deep") == true, "\(config.warnings)")
        #expect(config.themeName != "dark", "a refused file gives the defaults")
    }

    @Test func deeplyDottedKeysAreRefused() throws {
        let key = Array(repeating: "a", count: 100_000).joined(separator: ".")
        let config = try load(key + " = 1\n")
        #expect(config.warnings.first?.contains("key nested more than 32 levels deep") == true, "\(config.warnings)")
        let header = try load("[" + key + "]\n")
        #expect(header.warnings.first?.contains("key nested more than 32 levels deep") == true, "\(header.warnings)")
    }

    @Test func nestingUpToTheLimitIsRead() throws {
        let nested = String(repeating: "[", count: TOMLParser.maxDepth) + "\"x\"" + String(repeating: "]", count: TOMLParser.maxDepth)
        var value = try #require(try TOMLParser.parse("a = " + nested)["a"])
        for _ in 0..<TOMLParser.maxDepth {
            guard case .array(let items) = value, let first = items.first else {
                Issue.record("expected an array, got \(value)")
                return
            }
            value = first
        }
        #expect(value == .string("x"))
        let deeper = "[" + nested + "]"
        #expect(throws: TOMLError.self) { try TOMLParser.parse("a = " + deeper) }
        let dotted = Array(repeating: "k", count: TOMLParser.maxDepth).joined(separator: ".")
        #expect(try TOMLParser.parse(dotted + " = 1").count == 1)
    }
}
