import Foundation
import Shared
import Streamer
import Testing
import TestSupport

/// The `onAskCredentials` loop: asked only when interaction is allowed, again after each wrong
/// password, until the person cancels.
@Suite struct ZIPPasswordPromptTests {
    static let samples = [
        "protected-zip/derived-wasteland-pkzip-secret.epub",
        "protected-zip/derived-wasteland-winzip-aes256-secret.epub",
    ]

    @Test(arguments: samples)
    func wrongThenRightOpens(_ sample: String) async throws {
        let prompt = ScriptedPrompt(["nope", "secret"])
        let publication = try await PasswordOpening.open(Fixtures.sample(sample), allowUserInteraction: true,
                                                         onAskCredentials: prompt.callback)
        defer { publication.close() }
        #expect(publication.metadata.title == "The Waste Land")
        #expect(publication.credentials == "secret")
        let requests = prompt.requests
        try #require(requests.count == 2)
        let fileName = String(sample.split(separator: "/").last!)
        for request in requests {
            #expect(request.kind == .password)
            // The title is encrypted too: the file name stands in for it.
            #expect(request.title == fileName)
            #expect(request.message.contains("password-protected ZIP archive"))
        }
        #expect(requests[0].error == nil)
        #expect(requests[1].error == "incorrect password for this password-protected ZIP archive")
    }

    @Test(arguments: samples)
    func wrongThenCancelIsIncorrectCredentials(_ sample: String) async throws {
        let prompt = ScriptedPrompt(["nope", nil])
        let error = try await PasswordOpening.openingError(Fixtures.sample(sample), allowUserInteraction: true,
                                                           onAskCredentials: prompt.callback)
        #expect(PasswordOpening.incorrectCredentialsMessage(error) == "incorrect password for this password-protected ZIP archive")
        #expect(prompt.requests.count == 2)
    }

    @Test func cancelAtOnceSaysAPasswordIsRequired() async throws {
        let prompt = ScriptedPrompt([nil])
        let error = try await PasswordOpening.openingError(Fixtures.sample(Self.samples[0]), allowUserInteraction: true,
                                                           onAskCredentials: prompt.callback)
        #expect(PasswordOpening.incorrectCredentialsMessage(error)?.contains("password is required") == true)
        #expect(prompt.requests.count == 1)
    }

    @Test(arguments: [nil, "nope"] as [String?])
    func neverAskedWithoutInteraction(_ credentials: String?) async throws {
        let prompt = ScriptedPrompt(["secret"])
        let error = try await PasswordOpening.openingError(Fixtures.sample(Self.samples[1]), credentials: credentials,
                                                           allowUserInteraction: false, onAskCredentials: prompt.callback)
        #expect(PasswordOpening.incorrectCredentialsMessage(error) != nil)
        #expect(prompt.requests.isEmpty)
    }

    @Test func rightCredentialsAreNotAskedAgain() async throws {
        let prompt = ScriptedPrompt(["unused"])
        let publication = try await PasswordOpening.open(Fixtures.sample(Self.samples[0]), credentials: "secret",
                                                         allowUserInteraction: true, onAskCredentials: prompt.callback)
        publication.close()
        #expect(prompt.requests.isEmpty)
    }

    @Test func wrongCredentialsMakeTheFirstRequestExplainWhy() async throws {
        let prompt = ScriptedPrompt(["secret"])
        let publication = try await PasswordOpening.open(Fixtures.sample(Self.samples[1]), credentials: "nope",
                                                         allowUserInteraction: true, onAskCredentials: prompt.callback)
        publication.close()
        #expect(prompt.requests.count == 1)
        #expect(prompt.requests.first?.error?.contains("incorrect password") == true)
    }

    @Test func unprotectedPackagesAreNotClaimed() async throws {
        let prompt = ScriptedPrompt(["secret"])
        let publication = try await PasswordOpening.open(Fixtures.sample("epub/idpf-wasteland.epub"), credentials: "secret",
                                                         allowUserInteraction: true, onAskCredentials: prompt.callback)
        defer { publication.close() }
        #expect(!publication.isProtected)
        #expect(prompt.requests.isEmpty)
    }

    /// Third-party protections come first: one that claims the asset keeps the ZIP password
    /// protection from running.
    @Test func thirdPartyProtectionTakesPrecedence() async throws {
        let asset = try AssetRetriever().retrieve(path: Fixtures.sample(Self.samples[0]))
        let opener = PublicationOpener(contentProtections: [ClaimingProtection()])
        do {
            _ = try await opener.open(asset: asset, allowUserInteraction: false)
            Issue.record("the claiming protection must have run first")
        } catch {
            #expect(PasswordOpening.incorrectCredentialsMessage(error) == "claimed first")
        }
        asset.fetcher.close()
        #expect(PublicationOpener.defaultFormatProtections.contains { $0 is ZIPPasswordContentProtection })
    }
}

private struct ClaimingProtection: ContentProtection {
    func open(asset: Asset, fetcher: any Fetcher, credentials: String?, allowUserInteraction: Bool,
              sender: (any Sendable)?, onAskCredentials: OnAskCredentials?) async throws(OpeningError) -> ProtectedAsset? {
        throw .incorrectCredentials("claimed first")
    }
}
