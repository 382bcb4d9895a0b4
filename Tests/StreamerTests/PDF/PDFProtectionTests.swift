import Foundation
import Shared
import Streamer
import Synchronization
import Testing
import TestSupport

/// Encrypted PDFs: passwords, prompts and permissions, through the opener.
@Suite struct PDFProtectionTests {
    static let aes256 = "pdf/qpdf-aes256-user-open-sesame.pdf"
    static let rc4 = "pdf/qpdf-rc4-128-user-open-sesame.pdf"
    static let ownerOnly = "pdf/qpdf-aes256-owner-only.pdf"
    static let libreOffice = "pdf/pypdf-libreoffice-writer-password.pdf"

    /// Answers prompts from a list, recording each request.
    final class Prompter: Sendable {
        let answers: Mutex<[String?]>
        let requests = Mutex<[CredentialsRequest]>([])

        init(_ answers: [String?]) {
            self.answers = Mutex(answers)
        }

        var ask: OnAskCredentials {
            { request, _ in
                self.requests.withLock { $0.append(request) }
                return self.answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            }
        }
    }

    func open(_ sample: String, credentials: String? = nil, prompter: Prompter? = nil) async throws(OpeningError) -> Publication {
        let asset: Asset
        do {
            asset = try AssetRetriever().retrieve(path: Fixtures.sample(sample))
        } catch {
            throw .notFound(sample)
        }
        return try await PublicationOpener(onAskCredentials: prompter?.ask)
            .open(asset: asset, allowUserInteraction: prompter != nil, credentials: credentials)
    }

    func expectIncorrectCredentials(_ sample: String, credentials: String?, containing words: String) async {
        do {
            let publication = try await open(sample, credentials: credentials)
            Issue.record("\(sample) opened: \(publication.metadata.title ?? "")")
        } catch {
            guard case .incorrectCredentials(let message) = error else {
                Issue.record("expected incorrectCredentials, got \(error)")
                return
            }
            #expect(message?.contains(words) == true, "\(message ?? "nil")")
        }
    }

    @Test(arguments: [aes256, rc4])
    func theUserPasswordOpens(sample: String) async throws {
        let publication = try await open(sample, credentials: "open sesame")
        defer { publication.close() }
        #expect(publication.isProtected)
        #expect(!publication.isRestricted)
        #expect(publication.protectionName == "PDF password")
        #expect(publication.contentProtectionService?.scheme == "pdf-password")
        #expect(publication.credentials == "open sesame")
        #expect(publication.metadata.numberOfPages == 4)
        let text = try #require(publication.pageTextService?.text(ofPage: 0))
        #expect(text.hasPrefix("Hello, here is some text"))
    }

    @Test func permissionsBecomeRights() async throws {
        // AES-256 sample: print=none, extract=n; RC4 sample: everything allowed.
        let restricted = try await open(Self.aes256, credentials: "open sesame")
        #expect(await !restricted.rights.canCopy)
        #expect(await !restricted.rights.copy(text: "Hello").isGranted)
        #expect(await !restricted.rights.canPrint)
        #expect(await !restricted.rights.print(pages: 1).isGranted)
        #expect(restricted.rights is PDFPermissionUserRights)
        let open = try await open(Self.rc4, credentials: "open sesame")
        #expect(await open.rights.canCopy)
        #expect(await open.rights.canPrint)
        #expect(open.rights is UnrestrictedUserRights)
    }

    @Test(arguments: [aes256, rc4, ownerOnly])
    func theOwnerPasswordAllowsEverything(sample: String) async throws {
        let publication = try await open(sample, credentials: "owner-secret")
        #expect(await publication.rights.canCopy)
        #expect(await publication.rights.canPrint)
        #expect(publication.credentials == "owner-secret")
    }

    @Test func anEmptyUserPasswordOpensWithoutPromptingUnderItsPermissions() async throws {
        let prompter = Prompter(["never used"])
        let publication = try await open(Self.ownerOnly, prompter: prompter)
        #expect(prompter.requests.withLock { $0.isEmpty })
        #expect(publication.isProtected)
        #expect(!publication.isRestricted)
        #expect(publication.credentials == nil)
        #expect(await !publication.rights.canCopy)
        #expect(await !publication.rights.canPrint)
        // poppler would give the text anyway: the rights are what Lectern enforces.
        #expect(publication.pageTextService?.text(ofPage: 0)?.isEmpty == false)
    }

    @Test(arguments: ["openpassword", "permissionpassword"])
    func theLibreOfficeSampleOpensWithEitherPassword(password: String) async throws {
        let publication = try await open(Self.libreOffice, credentials: password)
        #expect(publication.metadata.numberOfPages == 1)
        #expect(await publication.rights.canCopy)
        #expect(await publication.rights.canPrint)
        #expect(publication.pageTextService?.text(ofPage: 0)?.isEmpty == false)
    }

    @Test(arguments: [aes256, rc4, libreOffice, ownerOnly])
    func aWrongPasswordIsRefused(sample: String) async {
        await expectIncorrectCredentials(sample, credentials: "not the password", containing: "incorrect password")
    }

    @Test(arguments: [aes256, rc4, libreOffice])
    func aMissingPasswordIsRefusedWithoutInteraction(sample: String) async {
        await expectIncorrectCredentials(sample, credentials: nil, containing: "protected by a password")
    }

    @Test func thePromptIsRepeatedAfterEachWrongAnswer() async throws {
        let prompter = Prompter(["nope", "still wrong", "open sesame"])
        let publication = try await open(Self.aes256, prompter: prompter)
        #expect(publication.credentials == "open sesame")
        let requests = prompter.requests.withLock { $0 }
        #expect(requests.count == 3)
        #expect(requests.allSatisfy { $0.kind == .password && $0.title == "qpdf-aes256-user-open-sesame" })
        #expect(requests[0].error == nil)
        #expect(requests[1].error?.contains("incorrect") == true)
    }

    @Test func wrongCredentialsAreShownInTheFirstPrompt() async throws {
        let prompter = Prompter(["owner-secret"])
        let publication = try await open(Self.ownerOnly, credentials: "typo", prompter: prompter)
        #expect(await publication.rights.canCopy)
        #expect(prompter.requests.withLock { $0.first?.error?.contains("incorrect") } == true)
    }

    @Test func cancellingThePromptRefusesTheOpening() async {
        let prompter = Prompter(["wrong"])
        do {
            _ = try await open(Self.rc4, prompter: prompter)
            Issue.record("opened without the password")
        } catch {
            guard case .incorrectCredentials = error else {
                Issue.record("expected incorrectCredentials, got \(error)")
                return
            }
        }
        #expect(prompter.requests.withLock { $0.count } == 2, "asked, refused, asked again, cancelled")
    }

    @Test func unencryptedPDFsGetNoProtectionService() async throws {
        for sample in ["pdf/pypdf-pdflatex-4-pages.pdf", "pdf/w3c-wai-dummy.pdf", "pdf/pypdf-habibi-arabic.pdf"] {
            let publication = try await open(sample, credentials: "ignored")
            #expect(!publication.isProtected, "\(sample)")
            #expect(publication.rights is UnrestrictedUserRights)
        }
    }

    @Test func theProtectionOnlyClaimsPDFFiles() async throws {
        let asset = try AssetRetriever().retrieve(path: Fixtures.sample("webpub/readium-mobydick.webpub"))
        let claimed = try await PDFContentProtection().open(asset: asset, fetcher: asset.fetcher, credentials: "x",
                                                            allowUserInteraction: false, sender: nil, onAskCredentials: nil)
        #expect(claimed == nil)
    }
}
