import Foundation
import Shared
import Streamer
import Synchronization
import Testing
import TestSupport

/// Makes password-protected archives with the real tools: Info-ZIP `zip -P` (traditional
/// PKWARE) and 7-Zip `7z -mem=AES…` (WinZip AES, AE-2).
enum PasswordArchives {
    /// One file to put in an archive.
    struct Entry {
        var name: String
        var data: Data
        var stored = false
        /// Whether it is encrypted (a partly encrypted archive has some in clear).
        var encrypted = true

        init(_ name: String, _ data: Data, stored: Bool = false, encrypted: Bool = true) {
            self.name = name
            self.data = data
            self.stored = stored
            self.encrypted = encrypted
        }

        init(_ name: String, _ text: String, stored: Bool = false, encrypted: Bool = true) {
            self.init(name, Data(text.utf8), stored: stored, encrypted: encrypted)
        }
    }

    /// Writes the files of `entries` under a new staging folder.
    static func stage(_ entries: [Entry]) throws -> String {
        let staging = Fixtures.temporaryDirectory("zip-password-staging")
        for entry in entries {
            let path = staging + "/" + entry.name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try entry.data.write(to: URL(fileURLWithPath: path))
        }
        return staging
    }

    /// A new archive path in a fresh temporary folder.
    static func path(_ name: String) -> String {
        Fixtures.temporaryDirectory("zip-password") + "/" + name
    }

    /// Info-ZIP `zip`, one entry at a time in order, encrypted entries with `-P password`.
    /// The password is passed as raw bytes (through `printf` octal escapes), so a test can
    /// write a password in a legacy code page as old tools did.
    static func pkware(_ entries: [Entry], password: [UInt8], to archive: String) throws {
        let staging = try stage(entries)
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let escaped = password.map { String(format: "\\%03o", $0) }.joined()
        for entry in entries {
            let level = entry.stored ? "-0" : "-9"
            let encryption = entry.encrypted ? "-P \"$(printf '\(escaped)')\"" : ""
            try ZipBuilder.run("/bin/sh", ["-c", "cd \"$1\" && zip -X -q \(level) \(encryption) \"$2\" \"$3\"", "sh", staging, archive, entry.name])
        }
    }

    static func pkware(_ entries: [Entry], password: String, to archive: String) throws {
        try pkware(entries, password: Array(password.utf8), to: archive)
    }

    /// 7-Zip WinZip AES (`-mem=AES128|AES192|AES256`, AE-2 for every entry). Entries that are
    /// not `encrypted` are added first in a separate, password-less run.
    static func winZipAES(_ entries: [Entry], password: String, bits: Int = 256, stored: Bool = false, to archive: String) throws {
        let staging = try stage(entries)
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let level = stored ? "-mx=0" : "-mx=9"
        let clear = entries.filter { !$0.encrypted }.map(\.name)
        if !clear.isEmpty {
            try ZipBuilder.run("/usr/bin/7z", ["a", "-tzip", level, archive] + clear, in: staging)
        }
        let encrypted = entries.filter(\.encrypted).map(\.name)
        try ZipBuilder.run("/usr/bin/7z", ["a", "-tzip", "-mem=AES\(bits)", "-p\(password)", level, archive] + encrypted, in: staging)
    }

    /// The files of a sample package, in archive order.
    static func entries(ofSample sample: String) throws -> [Entry] {
        let path = Fixtures.sample(sample)
        let names = try ZipBuilder.run("/usr/bin/unzip", ["-Z1", path]).split(separator: "\n").map(String.init)
        let staging = Fixtures.temporaryDirectory("zip-password-sample")
        defer { try? FileManager.default.removeItem(atPath: staging) }
        try ZipBuilder.run("/usr/bin/unzip", ["-q", path, "-d", staging])
        return names.filter { !$0.hasSuffix("/") }.map { name in
            Entry(name, Fixtures.bytes(staging + "/" + name), stored: name == "mimetype")
        }
    }

    /// A small EPUB whose chapter holds `sentinel`.
    static func smallEPUB(sentinel: String = "ZIP-PASSWORD-SENTINEL") -> [Entry] {
        let chapter = """
            <?xml version="1.0" encoding="UTF-8"?>
            <html xmlns="http://www.w3.org/1999/xhtml"><head><title>Chapter</title></head>
            <body><p>\(sentinel)</p><p>\(String(repeating: "Some words to compress. ", count: 40))</p></body></html>
            """
        return [
            Entry("mimetype", "application/epub+zip", stored: true),
            Entry("META-INF/container.xml", """
                <?xml version="1.0"?>
                <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
                  <rootfiles><rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles>
                </container>
                """),
            Entry("OPS/package.opf", """
                <?xml version="1.0"?>
                <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
                  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                    <dc:title>Secret Book</dc:title><dc:identifier id="id">urn:uuid:zip-password</dc:identifier><dc:language>en</dc:language>
                  </metadata>
                  <manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest>
                  <spine><itemref idref="c1"/></spine>
                </package>
                """),
            Entry("OPS/c1.xhtml", chapter),
        ]
    }
}

/// Opening helpers.
enum PasswordOpening {
    static func open(_ path: String, credentials: String? = nil, allowUserInteraction: Bool = false,
                     onAskCredentials: OnAskCredentials? = nil) async throws -> Publication {
        let asset = try AssetRetriever().retrieve(path: path)
        do {
            return try await PublicationOpener(onAskCredentials: onAskCredentials)
                .open(asset: asset, allowUserInteraction: allowUserInteraction, credentials: credentials)
        } catch {
            asset.fetcher.close()
            throw error
        }
    }

    /// The opening error, or nil (recording an issue) when the publication opened.
    static func openingError(_ path: String, credentials: String? = nil, allowUserInteraction: Bool = false,
                             onAskCredentials: OnAskCredentials? = nil,
                             sourceLocation: SourceLocation = #_sourceLocation) async throws -> OpeningError? {
        let asset = try AssetRetriever().retrieve(path: path)
        defer { asset.fetcher.close() }
        do {
            let publication = try await PublicationOpener(onAskCredentials: onAskCredentials)
                .open(asset: asset, allowUserInteraction: allowUserInteraction, credentials: credentials)
            Issue.record("opened \(publication.metadata.title ?? "?") instead of failing", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    /// The message when `error` is `incorrectCredentials`, else nil.
    static func incorrectCredentialsMessage(_ error: OpeningError?) -> String? {
        guard case .incorrectCredentials(let message) = error else { return nil }
        return message ?? ""
    }

    /// Reads every resource of the reading order and the resources, by href.
    static func contents(of publication: Publication) -> [String: ResourceResult<Data>] {
        var contents: [String: ResourceResult<Data>] = [:]
        for link in publication.readingOrder + publication.resources where contents[link.href] == nil {
            let resource = publication.get(link)
            contents[link.href] = resource.read()
            resource.close()
        }
        return contents
    }

    /// Expects `publication` to serve exactly the bytes `original` serves, href by href.
    static func expectSameContent(_ publication: Publication, as original: Publication,
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = contents(of: original), actual = contents(of: publication)
        #expect(Set(actual.keys) == Set(expected.keys), sourceLocation: sourceLocation)
        #expect(!expected.isEmpty, sourceLocation: sourceLocation)
        for (href, result) in expected {
            guard case .success(let bytes) = result else { continue }
            switch actual[href] {
            case .success(let data): #expect(data == bytes, "\(href)", sourceLocation: sourceLocation)
            case .failure(let error): Issue.record("\(href): \(error)", sourceLocation: sourceLocation)
            case nil: break
            }
        }
    }
}

/// A scripted person answering the password prompt: gives `answers` in turn (nil = cancel)
/// and records every request.
final class ScriptedPrompt: Sendable {
    private let answers: Mutex<[String?]>
    private let recorded = Mutex<[CredentialsRequest]>([])

    init(_ answers: [String?]) {
        self.answers = Mutex(answers)
    }

    var requests: [CredentialsRequest] { recorded.withLock { $0 } }

    var callback: OnAskCredentials {
        { request, _ in
            self.recorded.withLock { $0.append(request) }
            return self.answers.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        }
    }
}
