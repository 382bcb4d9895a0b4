import Foundation
import Testing
import TestSupport

/// Arabic text in the reader: joined letters (presentation forms) in visual order by
/// default, and logical order unshaped with `bidi = "terminal"` in config.toml.
@Suite(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ArabicShapingUITests {
    /// A book whose chapter is one Arabic paragraph: السلام عليكم (peace be upon you).
    static func arabicBook() throws -> String {
        let path = Fixtures.temporaryDirectory("arabic-book") + "/salam.epub"
        try TestEPUBs.write(title: "Salam", language: "ar", body: "<p dir=\"rtl\">السلام عليكم</p><p dir=\"ltr\">Latin line.</p>", to: path)
        return path
    }

    @Test func arabicIsShownJoinedInVisualOrder() throws {
        let tmux = try TmuxSession(width: 60, height: 12, arguments: ["open", try Self.arabicBook()], home: try UIFixtures.home())
        defer { tmux.close() }
        // عليكم then السلام from the left: each letter in its joining form, لا one ligature.
        let screen = try tmux.waitFor("Latin line.")
        let shaped = "\u{FEE2}\u{FEDC}\u{FEF4}\u{FEE0}\u{FECB} \u{FEE1}\u{FEFC}\u{FEB4}\u{FEDF}\u{FE8D}"
        #expect(screen.contains(shaped), "\(screen)")
        #expect(!screen.contains("السلام"))
    }

    @Test func terminalModeSendsLogicalOrder() throws {
        let home = try UIFixtures.home()
        try FileManager.default.createDirectory(atPath: home + "/config/lectern", withIntermediateDirectories: true)
        try "[reader]\nbidi = \"terminal\"\n".write(toFile: home + "/config/lectern/config.toml", atomically: true, encoding: .utf8)
        let tmux = try TmuxSession(width: 60, height: 12, arguments: ["open", try Self.arabicBook()], home: home)
        defer { tmux.close() }
        let screen = try tmux.waitForAll("Latin line.", "السلام عليكم")
        #expect(!screen.contains("\u{FEFC}"))
    }
}
