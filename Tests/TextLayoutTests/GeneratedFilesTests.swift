import Foundation
import Testing
import TestSupport

/// Files written by a generator are what their generator writes today: an edit by hand, or a
/// change to the generator or its inputs not followed by a regeneration, fails here.
@Suite struct GeneratedFilesTests {
    static let root = Fixtures.repositoryRoot

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/unicode/EastAsianWidth.txt"),
                   "Debian's unicode-data is not installed (make test installs it)"))
    func theCellWidthTableIsUpToDate() throws {
        let generated = try Command.run(["python3", Self.root + "/Sources/TerminalCells/generate_cell_width_table.py", "/usr/share/unicode"])
        #expect(generated == Fixtures.bytes(Self.root + "/Sources/TerminalCells/CellWidthTable.swift"),
                "regenerate CellWidthTable.swift with generate_cell_width_table.py")
    }

    @Test func theBuiltInThemesAreUpToDate() throws {
        let output = Fixtures.temporaryDirectory("themes") + "/BuiltinThemes.swift"
        try Command.run(["python3", Self.root + "/Themes/generate_builtin_themes.py", output])
        #expect(Fixtures.bytes(output) == Fixtures.bytes(Self.root + "/Sources/ReaderSettings/BuiltinThemes.swift"),
                "regenerate BuiltinThemes.swift with Themes/generate_builtin_themes.py")
    }
}
