import Foundation
@testable import LCP
import Shared
import Testing

/// The transition table of the license validation (lcp.md §11.2) and the status check
/// (§11.3), on their own.
@Suite struct ValidationStateMachineTests {
    typealias State = LicenseValidation.State
    typealias Event = LicenseValidation.Event

    let license: LicenseDocument
    let withoutStatusLink: LicenseDocument

    init() throws {
        var spec = LicenseSpec()
        spec.statusURL = "http://127.0.0.1:9/status"
        spec.rights = JSONObject(["start": .string("2026-01-01T00:00:00Z"), "end": .string("2026-12-31T00:00:00Z")])
        license = try LicenseDocument(data: try LicenseForge.make(spec).data)
        withoutStatusLink = try LicenseDocument(data: try LicenseForge.make(LicenseSpec()).data)
    }

    func status(_ value: String, updatedLicense: String = "2026-01-01T00:00:00Z", events: Int = 0, licenseLink: Bool = true) throws -> StatusDocument {
        var links: [String] = []
        if licenseLink { links.append(#"{"rel":"license","href":"http://x/l"}"#) }
        links.append(#"{"rel":"register","href":"http://x/r{?id,name}","templated":true}"#)
        let eventList = (0..<events).map { #"{"type":"register","id":"d\#($0)","name":"n"}"# }.joined(separator: ",")
        return try StatusDocument(data: Array("""
            {"id":"\(license.id)","status":"\(value)","updated":{"license":"\(updatedLicense)","status":"2026-05-05T00:00:00Z"},
             "links":[\(links.joined(separator: ","))],"events":[\(eventList)]}
            """.utf8))
    }

    func name(_ state: State?) -> String {
        guard let state else { return "nil" }
        return String(describing: state).prefix { $0 != "(" }.description
    }

    @Test func theHappyPath() throws {
        let data = license.data
        var state = try #require(LicenseValidation.transition(from: .start, on: .retrievedLicenseData(data)))
        #expect(name(state) == "validateLicense")
        state = try #require(LicenseValidation.transition(from: state, on: .validatedLicense(license)))
        #expect(name(state) == "fetchStatus")
        state = try #require(LicenseValidation.transition(from: state, on: .retrievedStatusData(Data())))
        #expect(name(state) == "validateStatus")
        state = try #require(LicenseValidation.transition(from: state, on: .validatedStatus(try status("ready"))))
        #expect(name(state) == "checkLicenseStatus")
        state = try #require(LicenseValidation.transition(from: state, on: .checkedLicenseStatus(nil)))
        #expect(name(state) == "requestPassphrase")
        state = try #require(LicenseValidation.transition(from: state, on: .retrievedPassphrase("00")))
        #expect(name(state) == "validateIntegrity")
        state = try #require(LicenseValidation.transition(from: state, on: .validatedIntegrity(TestContext())))
        #expect(name(state) == "registerDevice")
        state = try #require(LicenseValidation.transition(from: state, on: .registeredDevice(nil)))
        #expect(name(state) == "valid")
    }

    @Test func networkFailuresNeverFailTheValidation() throws {
        let check = LicenseValidation.transition(from: .fetchStatus(license), on: .failed(.network("offline")))
        guard case .checkLicenseStatus(_, nil, false)? = check else { Issue.record("\(String(describing: check))"); return }
        let afterBadStatus = LicenseValidation.transition(from: .validateStatus(license, data: Data()), on: .failed(.invalidStatus("x")))
        guard case .checkLicenseStatus(_, nil, false)? = afterBadStatus else { Issue.record("\(String(describing: afterBadStatus))"); return }
        let documents = ValidatedLicense(license: license, status: nil, context: .success(TestContext()))
        let link = LicenseLink(href: "http://x/r", rels: ["register"])
        guard case .valid? = LicenseValidation.transition(from: .registerDevice(documents, link), on: .failed(.network("x"))) else {
            Issue.record("a failed registration must leave the license valid")
            return
        }
    }

    @Test func aNewerLicenseIsFetchedAndItsFailureGivesTheStatusPrecedence() throws {
        let newer = try status("returned", updatedLicense: "2026-03-01T00:00:00Z")
        let fetch = LicenseValidation.transition(from: .validateStatus(license, data: Data()), on: .validatedStatus(newer))
        guard case .fetchLicense? = fetch else { Issue.record("\(String(describing: fetch))"); return }
        let precedence = LicenseValidation.transition(from: .fetchLicense(license, newer), on: .failed(.network("401")))
        guard case .checkLicenseStatus(_, _, true)? = precedence else { Issue.record("\(String(describing: precedence))"); return }
        // Not newer, or no license link: no download.
        for document in [try status("returned"), try status("returned", updatedLicense: "2026-03-01T00:00:00Z", licenseLink: false)] {
            guard case .checkLicenseStatus(_, _, false)? = LicenseValidation.transition(from: .validateStatus(license, data: Data()),
                                                                                       on: .validatedStatus(document)) else {
                Issue.record("unexpected transition")
                return
            }
        }
    }

    @Test func failuresAreFinalAndUnexpectedEventsAreRefused() {
        guard case .failure(.signatureInvalid)? = LicenseValidation.transition(from: .failure(.signatureInvalid), on: .retrievedPassphrase("x")) else {
            Issue.record("failure must stay failure")
            return
        }
        #expect(LicenseValidation.transition(from: .start, on: .retrievedPassphrase("x")) == nil)
        #expect(LicenseValidation.transition(from: .requestPassphrase(license, nil), on: .registeredDevice(nil)) == nil)
        guard case .failure(.invalidLicense)? = LicenseValidation.transition(from: .validateLicense(data: Data(), status: nil),
                                                                             on: .failed(.invalidLicense("x"))) else {
            Issue.record("an invalid license must fail the validation")
            return
        }
        guard case .failure(.signatureInvalid)? = LicenseValidation.transition(from: .validateIntegrity(license, nil, passphrase: "x"),
                                                                               on: .failed(.signatureInvalid)) else {
            Issue.record("an integrity failure must fail the validation")
            return
        }
    }

    @Test func cancellingThePassphraseIsAValidLockedLicense() {
        let state = LicenseValidation.transition(from: .requestPassphrase(license, nil), on: .passphraseMissing(.missingPassphrase))
        guard case .valid(let validated)? = state, case .missingPassphrase? = validated.error else {
            Issue.record("\(String(describing: state))")
            return
        }
    }

    func check(_ status: StatusDocument?, now: String, precedence: Bool = false) -> LCPStatusError? {
        LicenseStatusCheck.error(license: license, status: status, statusTakesPrecedence: precedence, now: RFC3339Date.parse(now)!)
    }

    @Test func statusCheck() throws {
        let start = RFC3339Date.parse("2026-01-01T00:00:00Z")!, end = RFC3339Date.parse("2026-12-31T00:00:00Z")!
        let statusDate = RFC3339Date.parse("2026-05-05T00:00:00Z")
        #expect(check(nil, now: "2026-06-01T00:00:00Z") == nil)
        #expect(check(nil, now: "2025-06-01T00:00:00Z") == .notStarted(start))
        #expect(check(nil, now: "2027-06-01T00:00:00Z") == .expired(end))
        #expect(check(try status("active"), now: "2027-06-01T00:00:00Z") == .expired(end))
        #expect(check(try status("revoked", events: 3), now: "2027-06-01T00:00:00Z") == .revoked(statusDate, devices: 3))
        #expect(check(try status("revoked", events: 3), now: "2026-06-01T00:00:00Z") == nil)
        #expect(check(try status("revoked", events: 3), now: "2026-06-01T00:00:00Z", precedence: true) == .revoked(statusDate, devices: 3))
        #expect(check(try status("returned"), now: "2026-06-01T00:00:00Z", precedence: true) == .returned(statusDate))
        #expect(check(try status("cancelled"), now: "2026-06-01T00:00:00Z", precedence: true) == .cancelled(statusDate))
        #expect(check(try status("expired"), now: "2026-06-01T00:00:00Z", precedence: true) == .expired(end))
        #expect(check(try status("active"), now: "2026-06-01T00:00:00Z", precedence: true) == nil)
        #expect(check(try status("ready"), now: "2025-06-01T00:00:00Z") == .notStarted(start))
        #expect(LicenseStatusCheck.error(license: withoutStatusLink, status: nil, statusTakesPrecedence: false,
                                         now: RFC3339Date.parse("2090-01-01T00:00:00Z")!) == nil)
    }
}

struct TestContext: LCPClientContext {}
