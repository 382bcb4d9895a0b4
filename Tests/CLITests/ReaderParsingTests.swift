import Foundation
import Testing
import TestSupport

/// `lectern open PATH` and `lectern` alone are parsed by their own command, without building
/// ArgumentParser's tree of every subcommand (#28); help and errors take the full parse, and
/// must read as before.
@Suite struct ReaderParsingTests {
    @Test func errorsAndHelpOfOpenReadAsBefore() throws {
        let lectern = LecternProcess()
        let extra = try lectern.run(["open", "a.epub", "b.epub"])
        #expect(extra.status != 0)
        #expect(extra.stderr.contains("Unexpected argument 'b.epub'") && extra.stderr.contains("lectern open"), "\(extra.stderr)")
        let help = try lectern.run(["open", "a.epub", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: lectern open"), "\(help.stdout)")
        let missing = try lectern.run(["open", "/nonexistent/a.epub"], timeout: 120)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("a.epub"), "\(missing.stderr)")
    }
}
