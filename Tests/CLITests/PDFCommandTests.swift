import Foundation
import Testing
import TestSupport

/// `lectern check`, `info` and `text` on the PDF samples, run as a process.
@Suite struct PDFCommandTests {
    let lectern = LecternProcess()

    static let clearSamples = [
        "pdf/pypdf-habibi-arabic.pdf", "pdf/pypdf-libre-office-link.pdf", "pdf/pypdf-pdflatex-4-pages.pdf",
        "pdf/pypdf-pdflatex-image.pdf", "pdf/pypdf-pdflatex-outline.pdf", "pdf/pypdf-with-attachment.pdf",
        "pdf/w3c-wai-dummy.pdf", "lcp/swifttoolkit-daisy.pdf",
    ]

    func json(_ arguments: [String]) throws -> (LecternProcess.Result, [String: Any]) {
        let result = try lectern.run(arguments + ["--json"])
        let object = try #require(result.json as? [String: Any], "stdout: \(result.stdout) stderr: \(result.stderr)")
        return (result, object)
    }

    func sha256(_ path: String) throws -> String {
        String(try ZipBuilder.run("/usr/bin/sha256sum", [path]).prefix(64))
    }

    @Test(arguments: clearSamples)
    func clearPDFsAreCheckedWhole(sample: String) throws {
        let path = Fixtures.sample(sample)
        let (result, report) = try json(["check", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(report["format"] as? String == "pdf")
        #expect(report["protection"] is NSNull)
        let resources = try #require(report["resources"] as? [[String: Any]])
        #expect(resources.count == 1)
        #expect(resources.first?["sha256"] as? String == (try sha256(path)))
    }

    @Test(arguments: [
        ("pdf/qpdf-aes256-user-open-sesame.pdf", "open sesame"),
        ("pdf/qpdf-rc4-128-user-open-sesame.pdf", "open sesame"),
        ("pdf/pypdf-libreoffice-writer-password.pdf", "openpassword"),
        ("pdf/pypdf-libreoffice-writer-password.pdf", "permissionpassword"),
        ("pdf/qpdf-aes256-owner-only.pdf", "owner-secret"),
    ])
    func encryptedPDFsOpenWithTheirPassword(sample: String, password: String) throws {
        let path = Fixtures.sample(sample)
        let check = try lectern.run(["check", path, "--password", password])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("Protection: PDF password"))
        let (info, report) = try json(["info", path, "--password", password])
        #expect(info.status == 0, "\(info.stderr)")
        let protection = try #require(report["protection"] as? [String: Any])
        #expect(protection["scheme"] as? String == "pdf-password")
        #expect(protection["restricted"] as? Bool == false)
    }

    @Test(arguments: [
        "pdf/qpdf-aes256-user-open-sesame.pdf", "pdf/qpdf-rc4-128-user-open-sesame.pdf",
        "pdf/pypdf-libreoffice-writer-password.pdf", "pdf/qpdf-aes256-owner-only.pdf",
    ])
    func wrongPasswordsExitTwo(sample: String) throws {
        for command in ["check", "info"] {
            let result = try lectern.run([command, Fixtures.sample(sample), "--password", "wrong password"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("incorrect password"), "\(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }

    @Test(arguments: [
        "pdf/qpdf-aes256-user-open-sesame.pdf", "pdf/qpdf-rc4-128-user-open-sesame.pdf",
        "pdf/pypdf-libreoffice-writer-password.pdf",
    ])
    func missingPasswordsExitTwo(sample: String) throws {
        let result = try lectern.run(["check", Fixtures.sample(sample)])
        #expect(result.status == 2)
        #expect(result.stderr.contains("protected by a password"), "\(result.stderr)")
    }

    @Test func theOwnerOnlyPDFOpensWithoutAPasswordWithCopyAndPrintForbidden() throws {
        let path = Fixtures.sample("pdf/qpdf-aes256-owner-only.pdf")
        let text = try lectern.run(["info", path])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("Protection:   PDF password"))
        #expect(text.stdout.contains("copy not allowed, print not allowed"))
        let (_, report) = try json(["info", path])
        let protection = try #require(report["protection"] as? [String: Any])
        let rights = try #require(protection["rights"] as? [String: Any])
        #expect(rights["canCopy"] as? Bool == false)
        #expect(rights["canPrint"] as? Bool == false)
        #expect(try lectern.run(["check", path]).status == 0)
    }

    @Test func permissionsShowInInfo() throws {
        let aes = try lectern.run(["info", Fixtures.sample("pdf/qpdf-aes256-user-open-sesame.pdf"), "--password", "open sesame"])
        #expect(aes.stdout.contains("copy not allowed, print not allowed"))
        let owner = try lectern.run(["info", Fixtures.sample("pdf/qpdf-aes256-user-open-sesame.pdf"), "--password", "owner-secret"])
        #expect(owner.stdout.contains("copy allowed, print allowed"))
    }

    @Test func infoShowsPagesAndTheOutline() throws {
        let path = Fixtures.sample("pdf/pypdf-pdflatex-outline.pdf")
        let text = try lectern.run(["info", path])
        #expect(text.status == 0)
        #expect(text.stdout.contains("Pages:        4"))
        #expect(text.stdout.contains("Table of contents:\n  Foo\n  Bar\n  Baz\n"))
        let (_, report) = try json(["info", path])
        let manifest = try #require(report["manifest"] as? [String: Any])
        let metadata = try #require(manifest["metadata"] as? [String: Any])
        #expect(metadata["numberOfPages"] as? Int == 4)
        let toc = try #require(manifest["toc"] as? [[String: Any]])
        #expect(toc.count == 9)
        #expect(toc.first?["href"] as? String == "pypdf-pdflatex-outline.pdf#page=2")
        #expect(toc.first?["title"] as? String == "Foo")
    }

    @Test func textWritesEachPage() throws {
        let path = Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf")
        let all = try lectern.run(["text", path])
        #expect(all.status == 0, "\(all.stderr)")
        let pages = all.stdout.split(separator: "\u{0C}", omittingEmptySubsequences: false)
        #expect(pages.count == 4)
        #expect(pages[0].hasPrefix("Hello, here is some text without a meaning."))
        #expect(pages[1].hasPrefix("information. Really?"))
        for (index, page) in pages.enumerated() {
            #expect(page.hasSuffix("\n\(index + 1)\n"))
        }
        let third = try lectern.run(["text", path, "--page", "3"])
        #expect(third.status == 0)
        #expect(third.stdout == String(pages[2]))
        let outOfRange = try lectern.run(["text", path, "--page", "5"])
        #expect(outOfRange.status != 0)
        #expect(outOfRange.stdout.isEmpty)
    }

    @Test func textRefusesWhenCopyingIsForbidden() throws {
        let ownerOnly = Fixtures.sample("pdf/qpdf-aes256-owner-only.pdf")
        let refused = try lectern.run(["text", ownerOnly])
        #expect(refused.status == 3)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("do not allow copying"))
        let asOwner = try lectern.run(["text", ownerOnly, "--password", "owner-secret"])
        #expect(asOwner.status == 0)
        #expect(asOwner.stdout.hasPrefix("Hello, here is some text"))
        let aes = try lectern.run(["text", Fixtures.sample("pdf/qpdf-aes256-user-open-sesame.pdf"), "--password", "open sesame"])
        #expect(aes.status == 3)
    }

    @Test func textOfOtherPublicationsAndRestrictedOnes() throws {
        let epub = try lectern.run(["text", Fixtures.sample("webpub/readium-mobydick.webpub")])
        #expect(epub.status == 2)
        #expect(epub.stderr.contains("no page text"))
        let lcpdf = try lectern.run(["text", Fixtures.sample("lcp/swifttoolkit-daisy.lcpdf")])
        #expect(lcpdf.status == 3)
        #expect(lcpdf.stdout.isEmpty)
    }

    @Test func textOfTheArabicSampleIsLogical() throws {
        let result = try lectern.run(["text", Fixtures.sample("pdf/pypdf-habibi-arabic.pdf")])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\u{062D}\u{064E}\u{0628}\u{064A}\u{0628}\u{064A}"))
    }

    @Test func damagedPDFsExitTwoWithOneLine() throws {
        let whole = Fixtures.bytes(Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf"))
        let path = Fixtures.temporaryDirectory("cli-pdf") + "/truncated.pdf"
        try whole.prefix(3000).write(to: URL(fileURLWithPath: path))
        let result = try lectern.run(["check", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("damaged"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    /// poppler overflows a stack buffer on AES-256 passwords of 128 bytes or more: the
    /// command line cuts them to 127 bytes (ISO 32000-2), so a long wrong password is refused
    /// (exit 2 with its one-line error, as for any wrong PDF password) instead of killing the process, and a long password whose first
    /// 127 bytes are right opens the document.
    @Test func longPasswordsAreCutTo127BytesBeforePoppler() throws {
        let path = Fixtures.temporaryDirectory("pdf-long-password") + "/long.pdf"
        _ = try Command.run(["qpdf", "--encrypt", String(repeating: "x", count: 127), "owner", "256", "--",
                             Fixtures.sample("pdf/pypdf-pdflatex-4-pages.pdf"), path])
        let wrong = try lectern.run(["check", path, "--password", String(repeating: "q", count: 1000)])
        #expect(wrong.status == 2, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("incorrect password"), "\(wrong.stderr)")
        let right = try lectern.run(["check", path, "--password", String(repeating: "x", count: 1000)])
        #expect(right.status == 0, "\(right.stderr)")
    }
}
