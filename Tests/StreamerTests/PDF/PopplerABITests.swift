import Foundation
import LibPoppler
import Testing
import TestSupport

/// poppler-glib is loaded at run time and its shim declares the types it uses by hand: compile
/// those declarations against the installed headers, whose static assertions compare them.
@Suite struct PopplerABITests {
    @Test func theShimMatchesTheInstalledHeaders() throws {
        let shim = Fixtures.repositoryRoot + "/Sources/CLecternPoppler/shim.h"
        let script = """
            compiler=$(command -v cc || command -v clang || command -v gcc) || { echo "no C compiler"; exit 2; }
            "$compiler" -fsyntax-only -DLECTERN_POPPLER_ABI_CHECK $(pkg-config --cflags poppler-glib) -x c "$0"
            """
        let output = try ZipBuilder.run("/bin/sh", ["-c", script, shim])
        #expect(!output.contains("error"), "\(output)")
    }

    @Test func popplerGlibIsLoadedOnFirstUse() {
        #expect(PDFDocument.isAvailable)
    }
}
