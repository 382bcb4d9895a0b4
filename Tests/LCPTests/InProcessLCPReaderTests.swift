import Bookshelf
import Foundation
import LCP
import ReaderUI
import Shared
import Streamer
import Terminal
import Testing
import TestSupport

/// An LCP book read in the interface run in-process on a ``MemoryCanvas`` (#30): the passphrase
/// dialog (a wrong passphrase, then the right one), copy and print over the license's allowance
/// refused with what is left — no terminal, no tmux.
@MainActor @Suite struct InProcessLCPReaderTests {
    /// An LCP EPUB of the test PKI allowing 12 characters of copy and 1 page of print, and an
    /// interface opening it with LCP plugged in (the passphrase asked through the dialog).
    static func reader(_ label: String) throws -> (app: ReaderApp, canvas: MemoryCanvas, path: String) {
        let lcp = try TestLCP(directory: Fixtures.temporaryDirectory(label))
        var spec = LicenseSpec()
        spec.passphrase = "river tide"
        spec.hint = "Where the barges drift"
        spec.rights = JSONObject(["copy": .int(12), "print": .int(1)])
        let license = try LicenseForge.make(spec)
        let path = lcp.directory + "/book.epub"
        try PackageForge.epub(at: path, license: license)
        let service = lcp.service
        let open: PublicationOpening = { path, allowUserInteraction, onAskCredentials in
            do {
                let asset = try AssetRetriever().retrieve(path: path)
                let publication = try await PublicationOpener(contentProtections: [service.contentProtection()],
                                                              onAskCredentials: onAskCredentials)
                    .open(asset: asset, allowUserInteraction: allowUserInteraction)
                return .success(OpenedPublication(publication: publication, format: "EPUB", licenseID: publication.lcpLicense?.license.id,
                                                  protectionName: "Readium LCP"))
            } catch let error as OpeningError {
                return .failure(OpenFailure(error))
            } catch {
                return .failure(OpenFailure(message: "\(error)"))
            }
        }
        var dependencies = ReaderApp.Dependencies(library: nil, open: open, config: ReaderConfig())
        dependencies.cacheFolder = lcp.directory + "/cache"
        return (ReaderApp(dependencies: dependencies), MemoryCanvas(rows: 24, columns: 80), path)
    }

    @Test func aWrongThenRightPassphraseThenCopyAndPrintOverTheAllowance() async throws {
        let (app, canvas, path) = try Self.reader("inprocess-lcp")
        app.startReader(path: path, on: canvas)
        let dialog = try await waitFor("Where the barges drift", app, canvas)
        #expect(dialog.contains("assphrase"), "\(dialog)")
        for character in "wrong one" { app.press(.character(character)) }
        app.press(.enter)
        let again = try await waitUntil("the passphrase refused in the dialog", app, canvas) { $0.contains("Where the barges drift") && $0.contains("Wrong passphrase") }
        #expect(!again.contains("wrong one"), "a passphrase is never shown")
        app.press(.control("u"))
        for character in "river tide" { app.press(.character(character)) }
        app.press(.enter)
        try await waitUntil("the first page", app, canvas) { $0.contains("one line 0") && !$0.contains("Where the barges drift") }

        // Copy: a whole line selected (more than 12 characters) is refused with what is left.
        app.press(.character("v"))
        try await waitUntil("a selection", app, canvas) { !$0.contains("one line 0") || $0.lowercased().contains("select") }
        app.press(.character("j"))
        app.press(.character("y"))
        let refusal = try await waitUntil("the copy refused", app, canvas) { $0.contains("Copy refused") }
        #expect(refusal.contains("only 12 left"), "\(refusal)")
        #expect(canvas.clipboard.isEmpty, "nothing reached the clipboard")
        app.press(.escape)
        app.press(.escape)

        // Print: three pages asked with one left.
        app.press(.character("p"))
        try await waitUntil("the page range prompt", app, canvas) { $0.contains("1-") }
        for character in "1-3" { app.press(.character(character)) }
        app.press(.enter)
        let printRefusal = try await waitUntil("the print refused", app, canvas) { $0.contains("Print refused") }
        #expect(printRefusal.contains("only 1 page left"), "\(printRefusal)")
    }

    @discardableResult
    private func waitFor(_ text: String, _ app: ReaderApp, _ canvas: MemoryCanvas) async throws -> String {
        try await waitUntil(text, app, canvas) { $0.contains(text) }
    }

    @discardableResult
    func waitUntil(_ what: String, _ app: ReaderApp, _ canvas: MemoryCanvas, _ condition: (String) -> Bool) async throws -> String {
        do {
            try await StateWait.until(what) {
                app.redraw()
                return condition(canvas.text)
            }
        } catch is StateWait.Timeout {
            Issue.record("timed out waiting for \(what); canvas:\n\(canvas.text)")
            throw CancellationError()
        }
        return canvas.text
    }
}
