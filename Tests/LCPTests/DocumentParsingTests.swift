import Foundation
import LCP
import LibCrypto
import Shared
import Testing
import TestSupport

/// License and status documents parsed tolerantly from their bytes, with Readium's required
/// members; RFC 3339 dates; the canonical form.
@Suite struct DocumentParsingTests {
    /// A minimal license with every required member, as a JSON object to modify.
    static func minimal() -> JSONObject {
        JSONObject([
            "id": .string("abc"), "issued": .string("2020-01-01T00:00:00Z"), "provider": .string("https://p.example"),
            "encryption": .object(JSONObject([
                "profile": .string(LCPProfile.basic),
                "content_key": .object(JSONObject(["algorithm": .string(LCPAlgorithm.aes256CBC),
                                                   "encrypted_value": .string(Data(count: 64).base64EncodedString())])),
                "user_key": .object(JSONObject(["algorithm": .string(LCPAlgorithm.sha256), "text_hint": .string("hint"),
                                                "key_check": .string(Data(count: 64).base64EncodedString())])),
            ])),
            "links": .array([.object(JSONObject(["rel": .string("publication"), "href": .string("https://p.example/b.epub")]))]),
            "signature": .object(JSONObject(["algorithm": .string(LCPAlgorithm.rsaSHA256), "certificate": .string("AAAA"),
                                             "value": .string("AAAA")])),
        ])
    }

    func parse(_ object: JSONObject) throws -> LicenseDocument {
        try LicenseDocument(data: JSONWriter().bytes(.object(object)))
    }

    func expectInvalid(_ object: JSONObject, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(sourceLocation: sourceLocation) { try parse(object) } throws: { error in
            guard case LCPError.invalidLicense = error else { return false }
            return (error as? LCPError)?.userMessage == "The LCP license of this book is not valid."
        }
    }

    @Test(arguments: ["id", "issued", "provider", "encryption", "links", "signature"])
    func requiredMembersAreRequired(_ name: String) {
        var object = Self.minimal()
        object[name] = nil
        expectInvalid(object)
    }

    @Test func textHintAndPublicationLinkAreRequired() {
        var object = Self.minimal()
        object["links"] = .array([.object(JSONObject(["rel": .string("hint"), "href": .string("https://p.example/hint")]))])
        expectInvalid(object)
        object = Self.minimal()
        var encryption = object["encryption"]!.object!
        var userKey = encryption["user_key"]!.object!
        userKey["text_hint"] = nil
        encryption["user_key"] = .object(userKey)
        object["encryption"] = .object(encryption)
        expectInvalid(object)
    }

    /// Pre-1.0 drafts keyed links by relation.
    @Test func linksAsAnObjectAreNotLCP1() {
        var object = Self.minimal()
        object["links"] = .object(JSONObject(["publication": .object(JSONObject(["href": .string("https://p.example/b.epub")]))]))
        expectInvalid(object)
    }

    @Test func malformedDatesAreRefusedRatherThanIgnored() {
        for (path, value) in [("issued", "yesterday"), ("updated", "2020-13-01T00:00:00Z")] {
            var object = Self.minimal()
            object[path] = .string(value)
            expectInvalid(object)
        }
        var object = Self.minimal()
        object["rights"] = .object(JSONObject(["end": .string("2031-02-30T00:00:00Z")]))
        expectInvalid(object)
    }

    @Test func invalidJSONAndNonObjectsAreInvalidLicenses() {
        for text in ["", "{", "[]", "\"license\"", "{\"id\": 1}", "{\"id\":\"a\",}"] {
            #expect(throws: LCPError.self) { try LicenseDocument(data: Array(text.utf8)) }
        }
    }

    /// The spec-style example license: no signature and no publication link.
    @Test func specExampleLicenseIsRefused() {
        #expect(throws: LCPError.self) {
            try LicenseDocument(data: Fixtures.bytes(Fixtures.sample("format-sniffing/lcpl.unknown")))
        }
    }

    @Test func toleratedVariants() throws {
        var object = Self.minimal()
        object["links"] = .array([
            .object(JSONObject(["rel": .array([.string("publication"), .string("alternate")]), "href": .string("https://p.example/b.epub"),
                                "length": .string("264929"), "hash": .string(String(repeating: "0f", count: 32))])),
            .object(JSONObject(["rel": .string("hint"), "href": .string("https://p.example/hint"), "length": .int(12),
                                "hash": .string(Data(repeating: 0x0f, count: 32).base64EncodedString())])),
            .object(JSONObject(["rel": .string("status"), "href": .string("https://p.example/s{?x}"), "templated": .bool(true)])),
        ])
        object["rights"] = .object(JSONObject(["print": .int(-1), "copy": .int(0), "https://x.example/ext": .bool(true)]))
        object["unknown"] = .array([.null, .bool(false)])
        let license = try parse(object)
        #expect(license.publicationLink.length == 264_929)
        #expect(license.publicationLink.rels == ["publication", "alternate"])
        #expect(license.publicationLink.hashBytes == [UInt8](repeating: 0x0f, count: 32))
        #expect(license.link("hint")?.hashBytes == [UInt8](repeating: 0x0f, count: 32))
        #expect(license.link("status")?.url(["x": "a b"]) == "https://p.example/s?x=a%20b")
        #expect(license.rights.print == 0)   // negative = no right (fails closed)
        #expect(license.rights.copy == 0)    // zero = forbidden
        #expect(license.rights.json["https://x.example/ext"] == .bool(true))
        let canonical = String(decoding: license.canonicalBytes, as: UTF8.self)
        #expect(canonical.contains("\"unknown\":[null,false]"))
        #expect(!canonical.contains("signature"))
    }

    @Test func emptyRightsAreKeptInTheCanonicalForm() throws {
        var object = Self.minimal()
        object["rights"] = .object(JSONObject())
        let license = try parse(object)
        #expect(license.rights.copy == nil && license.rights.print == nil)
        #expect(String(decoding: license.canonicalBytes, as: UTF8.self).contains("\"rights\":{}"))
    }

    /// Go's encoding/json with HTML escaping off: sorted keys, raw UTF-8 and `/ < > &`,
    /// lower-case `\u00xx` for other controls, escaped U+2028/2029, numbers verbatim, only the
    /// top-level `signature` removed.
    @Test func canonicalFormFollowsTheSigners() throws {
        let text = """
            {"z": 1, "a": {"y": "\\u003c/b\\u003e & é \\u00e9", "x": [1.50, -0, 1e3]}, "c": "\\u0001\\u001f\\t\\n\\b\\f\\r\\"\\\\", \
            "e": "\\u2028\\u2029", "signature": {"value": "x"}, "n": {"signature": 1}, "\\u00e9": true, "B": null}
            """
        let canonical = LicenseDocument.canonicalBytes(of: try JSONParser.parse(text))
        #expect(String(decoding: canonical, as: UTF8.self) == """
            {"B":null,"a":{"x":[1.50,-0,1e3],"y":"</b> & é é"},"c":"\\u0001\\u001f\\t\\n\\b\\f\\r\\"\\\\","e":"\\u2028\\u2029","n":{"signature":1},"z":1,"é":true}
            """)
    }

    @Test(arguments: [
        ("2017-10-31T11:23:03.250720346Z", 1_509_448_983.250720346),
        ("2026-11-22T02:12:49Z", 1_795_313_569),
        ("2013-11-04T01:08:15+01:00", 1_383_523_695),
        ("2013-11-04T01:08:15-05:30", 1_383_547_095),
        ("2020-02-29T23:59:59.5z", 1_583_020_799.5),
        ("2020-07-30t10:53:13Z", 1_596_106_393),
        ("2020-07-30 10:53:13", 1_596_106_393),
        ("2031-01-01", 1_924_992_000),
        ("1969-12-31T23:59:59Z", -1),
    ])
    func rfc3339Dates(_ text: String, _ seconds: Double) throws {
        let date = try #require(RFC3339Date.parse(text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 1e-6)
    }

    @Test(arguments: ["", "2020", "2020-1-01", "2021-02-29", "2020-01-01T24:00:00Z", "2020-01-01T10:00Z",
                      "2020-01-01T10:00:00.Z", "2020-01-01T10:00:00.1234567890Z", "2020-01-01T10:00:00+0100",
                      "2020-01-01T10:00:00Zjunk", "2020-01-01T10:00:00 Z", "٢٠٢٠-01-01"])
    func malformedDates(_ text: String) {
        #expect(RFC3339Date.parse(text) == nil)
    }

    @Test func datesFormatForTheProtocolAndForPeople() throws {
        let date = try #require(RFC3339Date.parse("2031-01-01T05:06:07.9Z"))
        #expect(RFC3339Date.string(date) == "2031-01-01T05:06:07Z")
        #expect(RFC3339Date.display(date) == "2031-01-01 05:06 UTC")
    }

    @Test func statusDocumentOfThePalaceProject() throws {
        let status = try StatusDocument(data: Fixtures.bytes(Fixtures.sample("audiobook-drm/lcp_license_status.json")))
        #expect(status.id == "234-5435-3453-345354")
        #expect(status.status == .active)
        #expect(status.registeredDeviceCount == 1)
        #expect(status.link("register")?.templated == true)
        #expect(status.link("renew", type: "text/html")?.href == "https://example.org/license/35d9b2d6/renew")
        #expect(status.link("renew", type: "application/vnd.readium.license.status.v1.0+json")?.templated == true)
        #expect(status.potentialRightsEnd.map(RFC3339Date.string) == "2014-09-13T00:00:00Z")
        #expect(status.licenseUpdated.map(RFC3339Date.string) == "2016-08-05T00:00:00Z")
    }

    @Test(arguments: ["audiobook-drm/lcp_license_status_revoked.json", "audiobook-drm/lcp_license_status_unspec.json"])
    func incompleteStatusDocumentsAreUnusable(_ sample: String) {
        #expect(throws: LCPError.self) { try StatusDocument(data: Fixtures.bytes(Fixtures.sample(sample))) }
    }

    @Test func unknownStatusOrHTMLIsNoStatus() {
        #expect(throws: LCPError.self) { try StatusDocument(data: Array(#"{"id":"a","status":"paused"}"#.utf8)) }
        #expect(throws: LCPError.self) { try StatusDocument(data: Array("<!DOCTYPE html><html></html>".utf8)) }
    }
}
