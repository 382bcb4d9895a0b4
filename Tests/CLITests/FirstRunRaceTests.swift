import Foundation
import Synchronization
import Testing
import TestSupport

/// Several `lectern` processes started together on a state directory that does not exist yet:
/// each creates or finds the schema, none fails with "database is locked" or "table …
/// already exists".
@Suite struct FirstRunRaceTests {
    @Test(arguments: 1...3)
    func concurrentImportsOnAnEmptyStateDirectoryAllSucceed(round: Int) throws {
        let lectern = LecternProcess()
        let books = [Fixtures.sample("epub/idpf-wasteland.epub"), Fixtures.sample("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub"),
                     Fixtures.sample("cbz/swifttoolkit-test-comicinfo.cbz")]
        let home = lectern.home
        let collected = Mutex([Int: (status: Int32, stderr: String)]())
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let result = try? LecternProcess(home: home).run(["import"] + books, timeout: 120)
            let outcome = (status: result?.status ?? -1, stderr: result?.stderr ?? "did not run")
            collected.withLock { $0[index] = outcome }
        }
        let results = collected.withLock { $0 }
        #expect(results.count == 8)
        for (index, result) in results.sorted(by: { $0.key < $1.key }) {
            #expect(result.status == 0, "process \(index): \(result.stderr)")
        }
        let list = try lectern.run(["list", "--json"])
        let entries = try #require(list.json as? [[String: Any]], "\(list.stderr)")
        #expect(entries.count == books.count, "\(entries.map { $0["path"] ?? "" })")
    }
}
