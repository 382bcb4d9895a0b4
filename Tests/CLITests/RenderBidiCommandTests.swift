import Foundation
import Testing
import TestSupport

/// `lectern render --bidi`: Arabic shaped in visual order (lectern, the default), or in
/// logical order unshaped (terminal).
@Suite struct RenderBidiCommandTests {
    let lectern = LecternProcess()

    func book() throws -> String {
        let path = Fixtures.temporaryDirectory("render-bidi") + "/salam.epub"
        try TestEPUBs.write(title: "Salam", language: "ar", body: "<p dir=\"rtl\">السلام عليكم</p>", to: path)
        return path
    }

    @Test func lecternShapesAndReorders() throws {
        let path = try book()
        for arguments in [["render", path, "--width", "20"], ["render", path, "--width", "20", "--bidi", "lectern"]] {
            let result = try lectern.run(arguments)
            #expect(result.status == 0, "\(result.stderr)")
            // Eleven letters in ten cells (لا is one ligature), right-aligned in 20.
            #expect(result.stdout == String(repeating: " ", count: 9)
                + "\u{FEE2}\u{FEDC}\u{FEF4}\u{FEE0}\u{FECB} \u{FEE1}\u{FEFC}\u{FEB4}\u{FEDF}\u{FE8D}\n")
        }
    }

    @Test func terminalKeepsLogicalOrder() throws {
        let result = try lectern.run(["render", try book(), "--width", "20", "--bidi", "terminal"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == String(repeating: " ", count: 8) + "السلام عليكم\n")
    }

    @Test func unknownModeIsRefused() throws {
        let result = try lectern.run(["render", try book(), "--bidi", "mlterm"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("bidi"))
    }
}
