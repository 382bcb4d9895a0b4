import Foundation
import LCP
import ReaderUI
import Shared
import Terminal
import Testing
import TestSupport

/// One rights channel (#30): an LCP book's copy and print are decided, recorded and counted in
/// one call, whoever asks — tasks at once, the publication server's routes, the interface.
@Suite struct RightsChannelTests {
    /// An LCP EPUB of the test PKI allowing `copy` characters and `print` pages.
    static func book(_ label: String, copy: Int, print: Int) throws -> (lcp: TestLCP, path: String) {
        let lcp = try TestLCP(directory: Fixtures.temporaryDirectory(label))
        var spec = LicenseSpec()
        spec.passphrase = "river tide"
        spec.rights = JSONObject(["copy": .int(copy), "print": .int(print)])
        let path = lcp.directory + "/book.epub"
        try PackageForge.epub(at: path, license: try LicenseForge.make(spec))
        return (lcp, path)
    }

    /// Copies from many tasks, through two openings of the book (as the server and the
    /// interface hold theirs), never spend more than the grant: exactly as many are granted
    /// as fit, and each granted answer says a different count left, read where it was decided.
    @Test func concurrentCopiesNeverOverspend() async throws {
        let (lcp, path) = try Self.book("rights-concurrent", copy: 100, print: 9)
        let first = try await lcp.open(path, credentials: "river tide")
        let second = try await lcp.open(path, credentials: "river tide")
        defer { first.close(); second.close() }
        let channels = [first.rights, second.rights]
        let copies = await withTaskGroup(of: RightsDecision.self) { group in
            for index in 0..<32 { group.addTask { await channels[index % 2].copy(text: "0123456789") } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let granted = copies.filter(\.isGranted)
        #expect(granted.count == 10)
        #expect(Set(granted.map(\.allowance.copy)) == Set((0..<10).map { RightAllowance.left($0 * 10) }))
        #expect(copies.filter { !$0.isGranted }.allSatisfy { $0.allowance.copy == .left(0) })
        let prints = await withTaskGroup(of: RightsDecision.self) { group in
            for index in 0..<12 { group.addTask { await channels[index % 2].print(pages: 2) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(prints.filter(\.isGranted).count == 4)
        #expect(await first.rights.allowance == RightsAllowance(copy: .left(0), print: .left(1)))
        let licenseID = try #require(first.lcpLicense?.license.id)
        #expect(try lcp.licenses.allowance(licenseID: licenseID) == RightsAllowance(copy: .left(0), print: .left(1)))
    }

    /// A refusal consumes nothing and says what is left, as a grant does.
    @Test func aRefusedAnswerCarriesWhatIsLeft() async throws {
        let (lcp, path) = try Self.book("rights-refused", copy: 12, print: 1)
        let publication = try await lcp.open(path, credentials: "river tide")
        defer { publication.close() }
        let rights = publication.rights
        #expect(await rights.copy(text: "0123456789") == .granted(RightsAllowance(copy: .left(2), print: .left(1))))
        #expect(await rights.copy(text: "abc") == .refused(RightsAllowance(copy: .left(2), print: .left(1))))
        #expect(await rights.print(pages: 2) == .refused(RightsAllowance(copy: .left(2), print: .left(1))))
        #expect(await rights.print(pages: 1) == .granted(RightsAllowance(copy: .left(2), print: .left(0))))
        let refused = await RightsWebService(publication: publication).copy(query: ["text": "abc"])
        guard case .refused(_, let detail, let left) = refused else {
            Issue.record("the copy was not refused: \(refused)")
            return
        }
        #expect(detail == "copying 3 characters is more than the 2 left")
        #expect(left["copyCharactersLeft"] == .int(2))
        #expect(left["printPagesLeft"] == .int(0))
    }

    /// The interface and the server's routes spend one allowance and tell the same count.
    @MainActor @Test func theServerAndTheTerminalSeeTheSameCount() async throws {
        // The interface's book allows 12 characters; the server opens it on the same database.
        let (app, canvas, path) = try InProcessLCPReaderTests.reader("rights-server-terminal")
        let lcp = try TestLCP(directory: String(path[..<path.lastIndex(of: "/")!]))
        let screen = InProcessLCPReaderTests()
        app.startReader(path: path, on: canvas)
        try await screen.waitUntil("the passphrase dialog", app, canvas) { $0.contains("Where the barges drift") }
        for character in "river tide" { app.press(.character(character)) }
        app.press(.enter)
        try await screen.waitUntil("the first page", app, canvas) { $0.contains("one line 0") && !$0.contains("Where the barges drift") }

        // The server's copy of the same book spends 5 of the 12.
        let served = try await lcp.open(path, credentials: "river tide")
        defer { served.close() }
        let server = RightsWebService(publication: served)
        guard case .document(let spent, _) = await server.copy(query: ["text": "abcde"]) else {
            Issue.record("the server refused the copy")
            return
        }
        #expect(spent["rights"]?["copyCharactersLeft"] == .int(7))

        // The interface sees the 7 left when it offers a copy, and copies from them.
        app.press(.character("v"))
        try await screen.waitUntil("the count left in the selection bar", app, canvas) { $0.contains("7 left to copy") }
        app.press(.character("l"))
        app.press(.character("y"))
        let copied = try await screen.waitUntil("the copy", app, canvas) { $0.contains("Copied ") }
        let match = try #require(copied.firstMatch(of: /Copied (\d+) characters?.*, (\d+) characters? left/), "\(copied)")
        let (count, left) = (Int(match.1) ?? -1, Int(match.2) ?? -1)
        #expect(count > 0 && count + left == 7, "\(copied)")

        // And the server sees what the interface left.
        guard case .document(let status, _) = await server.status() else { return }
        #expect(status["rights"]?["copyCharactersLeft"] == .int(left))
    }
}
