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

    var canCopy: Bool { state.withLock { $0.calls.append("canCopy"); return $0.copyLeft > 0 } }
    func canCopy(text: String) -> Bool {
        state.withLock { $0.calls.append("canCopy(\(text))"); return text.unicodeScalars.count <= $0.copyLeft }
    }
    func copy(text: String) -> Bool {
        state.withLock {
            $0.calls.append("copy(\(text))")
            guard text.unicodeScalars.count <= $0.copyLeft else { return false }
            $0.copyLeft -= text.unicodeScalars.count
            return true
        }
    }
    var canPrint: Bool { state.withLock { $0.calls.append("canPrint"); return $0.printLeft > 0 } }
    func canPrint(pageCount: Int) -> Bool {
        state.withLock { $0.calls.append("canPrint(\(pageCount))"); return pageCount <= $0.printLeft }
    }
    func print(pageCount: Int) -> Bool {
        state.withLock {
            $0.calls.append("print(\(pageCount))")
            guard pageCount <= $0.printLeft else { return false }
            $0.printLeft -= pageCount
            return true
        }
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

@Suite struct ContentProtectionServiceTests {
    @Test func statusRoute() throws {
        let rights = CountingUserRights(copy: 10, print: 0)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        let resource = publication.get(ContentProtectionRoutes.status)
        let json = try #require(resource.readAsJSON().value)
        #expect(json["isRestricted"] == .bool(false))
        #expect(json["name"] == .string("Test DRM"))
        #expect(json["rights"]?["canCopy"] == .bool(true))
        #expect(json["rights"]?["canPrint"] == .bool(false))
        #expect(json["error"] == nil)
        #expect(rights.copyLeft == 10)
    }

    @Test func statusOfARestrictedPublication() throws {
        let publication = protectedPublication(TestProtectionService(isRestricted: true, error: ExpiredLicense(),
                                                                     name: .localized(["en": "Test", "fr": "Essai"])))
        let json = try #require(publication.get("/~readium/content-protection").readAsJSON().value)
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

    @Test func peekingDoesNotConsumeCopyRights() {
        let rights = CountingUserRights(copy: 10, print: 5)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        let peek = publication.get("/~readium/rights/copy?text=hello&peek=true")
        #expect(peek.read().value != nil)
        #expect(rights.copyLeft == 10)
        #expect(rights.calls == ["canCopy(hello)"])
        #expect(publication.get("/~readium/rights/copy?text=hello+world!!&peek=true").read().error?.isForbidden == true)
        #expect(rights.copyLeft == 10)
    }

    @Test func copyingConsumes() {
        let rights = CountingUserRights(copy: 10, print: 5)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        #expect(publication.get("/~readium/rights/copy?text=hello").read().value != nil)
        #expect(rights.copyLeft == 5)
        #expect(publication.get("/~readium/rights/copy?text=hello&peek=false").read().value != nil)
        #expect(rights.copyLeft == 0)
        let refused = publication.get("/~readium/rights/copy?text=x").read()
        #expect(refused.error?.isForbidden == true)
        #expect(refused.error?.httpStatus == 403)
        #expect(rights.copyLeft == 0)
        #expect(rights.calls == ["copy(hello)", "copy(hello)", "copy(x)"])
    }

    @Test func queryValuesArePercentDecoded() {
        let rights = CountingUserRights(copy: 100, print: 5)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        let template = publication.links.first { $0.href.hasPrefix(ContentProtectionRoutes.copy) }!
        let text = "héllo wörld & co = 100%?"
        let link = template.expanded(with: ["text": text, "peek": "true"])
        #expect(publication.get(link).read().value != nil)
        #expect(publication.get(link.href).read().value != nil)
        #expect(rights.calls == ["canCopy(\(text))", "canCopy(\(text))"])
        _ = publication.get("/~readium/rights/copy?text=a+b%2Bc").read()
        #expect(rights.calls.last == "copy(a b+c)")
    }

    @Test func printRoute() {
        let rights = CountingUserRights(copy: 0, print: 5)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        #expect(publication.get("/~readium/rights/print?pageCount=3&peek=true").read().value != nil)
        #expect(rights.printLeft == 5)
        #expect(publication.get("/~readium/rights/print?pageCount=3").read().value != nil)
        #expect(rights.printLeft == 2)
        #expect(publication.get("/~readium/rights/print?pageCount=3").read().error?.isForbidden == true)
        #expect(rights.printLeft == 2)
        #expect(publication.get("/~readium/rights/print?pageCount=0").read().error?.isOther == true)
        #expect(publication.get("/~readium/rights/print?pageCount=-2").read().error?.isOther == true)
        #expect(publication.get("/~readium/rights/print?pageCount=two").read().error?.isOther == true)
        #expect(publication.get("/~readium/rights/print").read().error?.isOther == true)
        #expect(rights.printLeft == 2)
    }

    @Test func missingTextIsAnError() {
        let rights = CountingUserRights(copy: 10, print: 5)
        let publication = protectedPublication(TestProtectionService(rights: rights))
        #expect(publication.get("/~readium/rights/copy").read().error?.isOther == true)
        #expect(publication.get("/~readium/rights/copy?peek=true").read().error?.isOther == true)
        #expect(rights.calls.isEmpty)
        // An empty text is a text.
        #expect(publication.get("/~readium/rights/copy?text=").read().value != nil)
    }

    @Test func otherHrefsReachTheFetcher() {
        let publication = protectedPublication(TestProtectionService())
        #expect(publication.get("c1.xhtml").read().text == "<c1/>")
        #expect(publication.get("/~readium/other").read().error?.isNotFound == true)
    }

    @Test func publicationHelpers() {
        let rights = CountingUserRights(copy: 3, print: 1)
        let publication = protectedPublication(TestProtectionService(isRestricted: true, error: ExpiredLicense(), rights: rights))
        #expect(publication.isProtected)
        #expect(publication.isRestricted)
        #expect(publication.protectionError.map(userMessage(of:)) == "the loan ended on 2020-02-19")
        #expect(publication.protectionName == "Test DRM")
        #expect(publication.credentials == nil)
        #expect(publication.contentProtectionService?.scheme == "test-drm")
        #expect(publication.rights.copy(text: "abc"))
        #expect(!publication.rights.canCopy)
    }

    @Test func defaultRightsFollowRestriction() {
        let restricted = protectedPublication(DefaultRightsService(isRestricted: true))
        #expect(restricted.isProtected && restricted.isRestricted)
        #expect(!restricted.rights.canCopy && !restricted.rights.canPrint)
        #expect(!restricted.rights.copy(text: "a"))
        #expect(restricted.get("/~readium/rights/copy?text=a").read().error?.isForbidden == true)
        #expect(restricted.protectionName == nil)
        let open = protectedPublication(DefaultRightsService(isRestricted: false))
        #expect(open.isProtected && !open.isRestricted)
        #expect(open.rights.canCopy && open.rights.print(pageCount: 99))
        #expect(open.get("/~readium/rights/print?pageCount=99").read().value != nil)
    }
}
