import Foundation
import Testing
import TestSupport

/// Every dictionary of `Fuzz/dictionaries/` is one libFuzzer accepts: a fuzzer given a line it
/// cannot parse stops before its first input (`ParseDictionaryFile: error in line N`), and
/// `make fuzz` then reports 0 executions for the target — `annotation-koreader-lua` never ran
/// for that reason (#27).
@Suite struct FuzzDictionaryTests {
    static let folder = Fixtures.repositoryRoot + "/Fuzz/dictionaries"

    static var dictionaries: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".dict") }.sorted()
    }

    @Test func thereAreDictionaries() {
        #expect(Self.dictionaries.count >= 5)
    }

    @Test(arguments: FuzzDictionaryTests.dictionaries)
    func everyLineIsATokenLibFuzzerReads(_ name: String) throws {
        let text = try String(contentsOfFile: Self.folder + "/" + name, encoding: .utf8)
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            #expect(Self.problem(in: Substring(line)) == nil, "\(name), line \(number + 1): \(line)")
        }
    }

    /// What libFuzzer's `ParseOneDictionaryEntry` refuses in `line`, nil when it reads it:
    /// blank lines and `#` comments are skipped; an entry is an optional `name=` then a quoted
    /// token whose only escapes are `\\`, `\"` and `\xHH`.
    static func problem(in line: Substring) -> String? {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        guard !trimmed.isEmpty, trimmed.first != "#" else { return nil }
        guard let open = trimmed.firstIndex(of: "\""), trimmed.last == "\"", open < trimmed.index(before: trimmed.endIndex) else {
            return "not a quoted token"
        }
        var bytes = Array(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)].utf8)[...]
        while let first = bytes.first {
            bytes = bytes.dropFirst()
            guard first == UInt8(ascii: "\\") else { continue }
            guard let next = bytes.first else { return "a backslash ends the token" }
            if next == UInt8(ascii: "\\") || next == UInt8(ascii: "\"") {
                bytes = bytes.dropFirst()
            } else if next == UInt8(ascii: "x"), bytes.count >= 3,
                      bytes.dropFirst().prefix(2).allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }) {
                bytes = bytes.dropFirst(3)
            } else {
                return "\\\(Character(Unicode.Scalar(next))) is not an escape libFuzzer reads"
            }
        }
        return nil
    }
}
