import Foundation
import Shared
import Synchronization
import Testing

/// Copy and print quotas that count every call, as an LCP license would.
private final class CountingUserRights: UserRights {
    struct State {
        var copyLeft: Int
        var printLeft: Int
        var calls: [String] = []
    }

    let state: Mutex<State>

    init(copy: Int, print: Int) {
        state = Mutex(State(copyLeft: copy, printLeft: print))
    }

    var calls: [String] { state.withLock { $0.calls } }
    var copyLeft: Int { state.withLock { $0.copyLeft } }
    var printLeft: Int { state.withLock { $0.printLeft } }

    private var counted: RightsAllowance { state.withLock { RightsAllowance(copy: .left($0.copyLeft), print: .left($0.printLeft)) } }
    var allowance: RightsAllowance {
        get async {
            state.withLock { $0.calls.append("allowance") }
            return counted
        }
    }
    func copy(text: String) async -> RightsDecision {
        let granted = state.withLock {
            $0.calls.append("copy(\(text))")
            guard text.unicodeScalars.count <= $0.copyLeft else { return false }
            $0.copyLeft -= text.unicodeScalars.count
            return true
        }
        return granted ? .granted(counted) : .refused(counted)
    }
    func print(pages: Int) async -> RightsDecision {
        let granted = state.withLock {
            $0.calls.append("print(\(pages))")
            guard pages <= $0.printLeft else { return false }
            $0.printLeft -= pages
            return true
        }
        return granted ? .granted(counted) : .refused(counted)
    }
}

private struct ExpiredLicense: Error, UserMessageConvertible {
    var userMessage: String { "the loan ended on 2020-02-19" }
}

/// A protection service with the default routes.
private final class TestProtectionService: ContentProtectionService {
    let isRestricted: Bool
    let error: (any Error)?
    let customRights: CountingUserRights?
    let name: LocalizedString?
    let scheme = "test-drm"

    init(isRestricted: Bool = false, error: (any Error)? = nil, rights: CountingUserRights? = nil,
         name: LocalizedString? = "Test DRM") {
        self.isRestricted = isRestricted
        self.error = error
        customRights = rights
        self.name = name
    }

    var rights: any UserRights {
        if let customRights { return customRights }
        return isRestricted ? AllRestrictedUserRights() : UnrestrictedUserRights()
    }
}

/// A protection service that keeps the protocol's default rights.
private final class DefaultRightsService: ContentProtectionService {
    let isRestricted: Bool
    let error: (any Error)? = nil
    let name: LocalizedString? = nil
    let scheme = "default"

    init(isRestricted: Bool) { self.isRestricted = isRestricted }
}

private func protectedPublication(_ service: any ContentProtectionService) -> Publication {
    var builder = PublicationServicesBuilder()
    builder.set(PublicationServicesBuilder.contentProtection, { _ in service })
    return Publication(manifest: Manifest(metadata: Metadata(title: "Protected")),
                       fetcher: SpyFetcher("book", ["c1.xhtml": "<c1/>"]), servicesBuilder: builder)
}

/// The web service's answer as (HTTP status, JSON document).
private func parts(_ answer: RightsWebService.Answer) -> (status: Int, json: JSONValue?) {
    switch answer {
    case .document(let json, _): (200, json)
    case .refused(_, _, let rights): (403, .object(JSONObject(["rights": .object(rights)])))
    case .invalid: (400, nil)
    }
}

private func copy(_ publication: Publication, _ query: String) async -> Int {
    parts(await RightsWebService(publication: publication).copy(query: RightsWebService.parameters(of: query))).status
}

private func print(_ publication: Publication, _ query: String) async -> Int {
    parts(await RightsWebService(publication: publication).print(query: RightsWebService.parameters(of: query))).status
}

@Suite struct ContentProtectionServiceTests {
    @Test func statusRoute() async throws {
        let rights = CountingUserRights(copy: 10, print: 0)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        let json = try #require(parts(await RightsWebService(publication: publication).status()).json)
        #expect(json["isRestricted"] == .bool(false))
        #expect(json["name"] == .string("Test DRM"))
        #expect(json["rights"]?["canCopy"] == .bool(true))
        #expect(json["rights"]?["canPrint"] == .bool(false))
        #expect(json["error"] == nil)
        #expect(rights.copyLeft == 10)
    }

    @Test func statusOfARestrictedPublication() async throws {
        let publication = protectedPublication(TestProtectionService(isRestricted: true, error: ExpiredLicense(),
                                                                     name: .localized(["en": "Test", "fr": "Essai"])))
        let json = try #require(parts(await RightsWebService(publication: publication).status()).json)
        #expect(json["isRestricted"] == .bool(true))
        #expect(json["error"]?["en"] == .string("the loan ended on 2020-02-19"))
        #expect(json["name"]?["fr"] == .string("Essai"))
        #expect(json["rights"]?["canCopy"] == .bool(false))
    }

    @Test func routesAreAdvertisedInTheLinks() {
        let publication = protectedPublication(TestProtectionService())
        let hrefs = publication.links.map(\.href)
        #expect(hrefs == ["/~readium/content-protection", "/~readium/rights/copy{?text,peek}",
                          "/~readium/rights/print{?pageCount,peek}"])
        #expect(publication.links.filter(\.templated).count == 2)
        #expect(publication.links[0].mediaType == MediaType("application/vnd.readium.content-protection+json"))
    }

    @Test func peekingDoesNotConsumeCopyRights() async {
        let rights = CountingUserRights(copy: 10, print: 5)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        #expect(await copy(publication, "text=hello&peek=true") == 200)
        #expect(rights.copyLeft == 10)
        #expect(rights.calls == ["allowance"])
        #expect(await copy(publication, "text=hello+world!!&peek=true") == 403)
        #expect(rights.copyLeft == 10)
    }

    @Test func copyingConsumes() async {
        let rights = CountingUserRights(copy: 10, print: 5)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        #expect(await copy(publication, "text=hello") == 200)
        #expect(rights.copyLeft == 5)
        #expect(await copy(publication, "text=hello&peek=false") == 200)
        #expect(rights.copyLeft == 0)
        let refused = await RightsWebService(publication: publication).copy(query: ["text": "x"])
        #expect(parts(refused).status == 403)
        #expect(parts(refused).json?["rights"]?["copyCharactersLeft"] == .int(0))
        #expect(rights.copyLeft == 0)
        // One call to the rights per copy: the answer carries what is left.
        #expect(rights.calls == ["copy(hello)", "copy(hello)", "copy(x)"])
    }

    @Test func queryValuesArePercentDecoded() async throws {
        let rights = CountingUserRights(copy: 100, print: 5)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        let template = try #require(publication.links.first { $0.href.hasPrefix(ContentProtectionRoutes.copy) })
        let text = "héllo wörld & co = 100%?"
        let link = template.expanded(with: ["text": text, "peek": "true"])
        let query = try #require(link.href.split(separator: "?", maxSplits: 1).last.map(String.init))
        #expect(RightsWebService.parameters(of: query) == ["text": text, "peek": "true"])
        #expect(await copy(publication, query) == 200)
        #expect(rights.calls == ["allowance"])
        _ = await copy(publication, "text=a+b%2Bc")
        #expect(rights.calls.last == "copy(a b+c)")
    }

    @Test func printRoute() async {
        let rights = CountingUserRights(copy: 0, print: 5)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        #expect(await print(publication, "pageCount=3&peek=true") == 200)
        #expect(rights.printLeft == 5)
        #expect(await print(publication, "pageCount=3") == 200)
        #expect(rights.printLeft == 2)
        #expect(await print(publication, "pageCount=3") == 403)
        #expect(rights.printLeft == 2)
        #expect(await print(publication, "pageCount=0") == 400)
        #expect(await print(publication, "pageCount=-2") == 400)
        #expect(await print(publication, "pageCount=two") == 400)
        #expect(await print(publication, "") == 400)
        #expect(rights.printLeft == 2)
    }

    @Test func missingTextIsAnError() async {
        let rights = CountingUserRights(copy: 10, print: 5)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        #expect(await copy(publication, "") == 400)
        #expect(await copy(publication, "peek=true") == 400)
        #expect(rights.calls.isEmpty)
        // An empty text is a text.
        #expect(await copy(publication, "text=") == 200)
    }

    @Test func otherHrefsReachTheFetcher() {
        let publication = protectedPublication(TestProtectionService())
        #expect(publication.get("c1.xhtml").read().text == "<c1/>")
        #expect(publication.get("/~readium/other").read().error?.isNotFound == true)
    }

    @Test func publicationHelpers() async {
        let rights = CountingUserRights(copy: 3, print: 1)
        let publication = protectedPublication(TestProtectionService(isRestricted: true, error: ExpiredLicense(), rights: rights))
        #expect(publication.isProtected)
        #expect(publication.isRestricted)
        #expect(publication.protectionError.map(userMessage(of:)) == "the loan ended on 2020-02-19")
        #expect(publication.protectionName == "Test DRM")
        #expect(publication.credentials == nil)
        #expect(publication.contentProtectionService?.scheme == "test-drm")
        #expect(await publication.rights.copy(text: "abc").isGranted)
        #expect(await !publication.rights.canCopy)
    }

    @Test func defaultRightsFollowRestriction() async {
        let restricted = protectedPublication(DefaultRightsService(isRestricted: true))
        #expect(restricted.isProtected && restricted.isRestricted)
        #expect(await !restricted.rights.canCopy)
        #expect(await !restricted.rights.canPrint)
        #expect(await !restricted.rights.copy(text: "a").isGranted)
        #expect(await copy(restricted, "text=a") == 403)
        #expect(restricted.protectionName == nil)
        let open = protectedPublication(DefaultRightsService(isRestricted: false))
        #expect(open.isProtected && !open.isRestricted)
        #expect(await open.rights.canCopy)
        #expect(await open.rights.print(pages: 99).isGranted)
        #expect(await print(open, "pageCount=99") == 200)
    }
}
