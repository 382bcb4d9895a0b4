import Foundation
import LibCrypto
import Testing
import TestSupport

/// `lectern serve` as a real process on loopback: the manifest, resources equal to what
/// `lectern check --json` reads (LCP ones decrypted), ranges, the secret, the `Host` check,
/// traversal attempts and a clean stop.
@Suite struct ServeCommandTests {
    let lectern = LecternProcess()

    static let wasteland = Fixtures.sample("epub/idpf-wasteland.epub")
    static let lcpWasteland = Fixtures.sample("lcp/r2streamerjs-wasteland-otf-obf_LCP_dan.epub")
    static let daisy = Fixtures.sample("lcp/swifttoolkit-daisy.lcpdf")
    static let daisyClear = Fixtures.sample("lcp/swifttoolkit-daisy.pdf")

    func sha256(_ data: Data) -> String { Digest.sha256(data).hexString }

    /// `href` usable in a request target: bytes outside printable ASCII percent-encoded.
    func target(_ base: String, _ href: String) -> String {
        var out = base
        for byte in href.utf8 {
            if byte > 0x20, byte < 0x7F { out.unicodeScalars.append(Unicode.Scalar(byte)) }
            else { out += String(format: "%%%02X", byte) }
        }
        return out
    }

    /// Standard output is one URL per line (scripts read it); standard error says which book
    /// each URL serves, by its title (#29 item 20).
    @Test func eachURLIsNamedByItsBookOnStandardError() throws {
        let server = try ServeProcess([Self.wasteland, Self.daisyClear], publications: 2, home: lectern)
        #expect(server.readerURLs.allSatisfy { $0.hasPrefix("http://127.0.0.1:") && !$0.contains(" ") })
        let errors = server.stopAndReadErrors()
        #expect(errors.contains("“The Waste Land”: \(server.readerURLs[0])"), "\(errors)")
        #expect(errors.contains(": \(server.readerURLs[1])"), "\(errors)")
    }

    @Test func manifestHasASelfLinkLocalHrefsAndTheServiceLinks() throws {
        let server = try ServeProcess([Self.wasteland, Self.lcpWasteland, "--passphrase", "dan"], publications: 2, home: lectern)
        defer { server.stop() }
        for index in 0..<2 {
            let response = try server.client(index).request(server.path(index) + "manifest.json")
            #expect(response.status == 200)
            #expect(response.headers["content-type"] == "application/webpub+json")
            #expect(response.headers["x-content-type-options"] == "nosniff")
            let manifest = try #require(response.json)
            let links = manifest["links"] as? [[String: Any]] ?? []
            let selfLink = links.first { ($0["rel"] as? String) == "self" || ($0["rel"] as? [String])?.contains("self") == true }
            #expect(selfLink?["href"] as? String == server.readerURLs[index] + "manifest.json")
            // No file system path anywhere, and every other href relative to the manifest.
            #expect(!response.text.contains(Fixtures.directory))
            #expect(!response.text.contains("file:"))
            var hrefs: [String] = []
            for key in ["readingOrder", "resources", "toc"] {
                for link in manifest[key] as? [[String: Any]] ?? [] { hrefs.append(link["href"] as? String ?? "") }
            }
            hrefs += links.filter { $0["rel"] == nil }.compactMap { $0["href"] as? String }
            #expect(!hrefs.isEmpty)
            #expect(hrefs.allSatisfy { !$0.hasPrefix("/") && !$0.contains("://") })
            #expect(hrefs.contains("EPUB/wasteland-content.xhtml"))
            if index == 1 {
                #expect(hrefs.contains("~readium/content-protection"))
                #expect(hrefs.contains("~readium/rights/copy{?text,peek}"))
                #expect(hrefs.contains("~readium/rights/print{?pageCount,peek}"))
            }
        }
        #expect(server.stop() == 0)
    }

    @Test(arguments: [
        (Self.wasteland, nil), (Fixtures.sample("epub/idpf-kusamakura-preview.epub"), nil),
        (Fixtures.sample("epub/idpf-wasteland-woff-obf.epub"), nil), (Fixtures.sample("cbz/") , nil),
        (Self.lcpWasteland, "dan"), (Self.daisy, "test"),
    ] as [(String, String?)])
    func everyResourceEqualsWhatCheckReads(sample: String, passphrase: String?) throws {
        let path = sample.hasSuffix("/") ? try firstFile(in: sample) : sample
        let credentials = passphrase.map { ["--passphrase", $0] } ?? []
        let check = try lectern.run(["check", "--json"] + credentials + [path])
        let report = try #require(check.json as? [String: Any], "\(check.stdout) \(check.stderr)")
        let expected = (report["resources"] as? [[String: Any]] ?? []).compactMap { resource -> (String, String)? in
            guard let href = resource["href"] as? String, let hash = resource["sha256"] as? String else { return nil }
            return (href, hash)
        }
        #expect(!expected.isEmpty)
        let server = try ServeProcess([path] + credentials, publications: 1, home: lectern)
        defer { server.stop() }
        for (href, hash) in expected {
            let response = try server.client.request(target(server.path(), href))
            #expect(response.status == 200, "\(href)")
            #expect(sha256(response.body) == hash, "\(href)")
            #expect(response.headers["content-length"] == String(response.body.count))
        }
        #expect(server.stop() == 0)
    }

    func firstFile(in directory: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        return directory + (try #require(names.first { $0.hasSuffix(".cbz") }))
    }

    @Test func rangesOfADecryptedLCPResource() throws {
        let clear = Fixtures.bytes(Self.daisyClear)
        let length = clear.count
        let server = try ServeProcess([Self.daisy, "--passphrase", "test"], publications: 1, home: lectern)
        defer { server.stop() }
        let url = server.path() + "publication.pdf"
        let client = server.client

        let whole = try client.request(url)
        #expect(whole.status == 200)
        #expect(whole.body == clear)
        #expect(whole.headers["accept-ranges"] == "bytes")
        #expect(whole.headers["content-type"] == "application/pdf")
        let etag = try #require(whole.headers["etag"])

        for (header, range) in [("bytes=0-99", 0..<100), ("bytes=400000-400999", 400_000..<401_000),
                                ("bytes=-100", (length - 100)..<length), ("bytes=819000-", 819_000..<length),
                                ("bytes=\(length - 1)-\(length + 50)", (length - 1)..<length)] {
            let response = try client.request(url, headers: ["Range": header])
            #expect(response.status == 206, "\(header)")
            #expect(response.body == clear[range], "\(header)")
            #expect(response.headers["content-range"] == "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)")
        }

        let multi = try client.request(url, headers: ["Range": "bytes=0-9, 500000-500099, -10"])
        #expect(multi.status == 206)
        let contentType = try #require(multi.headers["content-type"])
        #expect(contentType.hasPrefix("multipart/byteranges; boundary="))
        let boundary = String(contentType.dropFirst("multipart/byteranges; boundary=".count))
        let parts = multipartBodies(multi.body, boundary: boundary)
        #expect(parts.count == 3)
        #expect(parts.map(\.range) == ["bytes 0-9/\(length)", "bytes 500000-500099/\(length)", "bytes \(length - 10)-\(length - 1)/\(length)"])
        #expect(parts.map(\.body) == [clear[0..<10], clear[500_000..<500_100], clear[(length - 10)..<length]].map { Data($0) })

        let unsatisfiable = try client.request(url, headers: ["Range": "bytes=\(length)-"])
        #expect(unsatisfiable.status == 416)
        #expect(unsatisfiable.headers["content-range"] == "bytes */\(length)")

        let head = try client.request(url, method: "HEAD")
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == String(length))
        #expect(head.body.isEmpty)

        #expect(try client.request(url, headers: ["If-None-Match": etag]).status == 304)
        let stale = try client.request(url, headers: ["Range": "bytes=0-9", "If-Range": "\"other\""])
        #expect(stale.status == 200 && stale.body == clear)
        let fresh = try client.request(url, headers: ["Range": "bytes=0-9", "If-Range": etag])
        #expect(fresh.status == 206 && fresh.body == clear[0..<10])
        #expect(server.stop() == 0)
    }

    /// The parts of a `multipart/byteranges` body: their Content-Range and bytes.
    func multipartBodies(_ body: Data, boundary: String) -> [(range: String, body: Data)] {
        var parts: [(String, Data)] = []
        let delimiter = Data("--\(boundary)".utf8)
        var cursor = body.startIndex
        while let start = body[cursor...].range(of: delimiter) {
            let afterDelimiter = start.upperBound
            if body[afterDelimiter...].starts(with: Data("--".utf8)) { break }
            guard let headEnd = body[afterDelimiter...].range(of: Data("\r\n\r\n".utf8)) else { break }
            let head = String(decoding: body[afterDelimiter..<headEnd.lowerBound], as: UTF8.self)
            let range = head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-range:") }
                .map { String($0.dropFirst("content-range:".count)).trimmingCharacters(in: .whitespaces) } ?? ""
            guard let next = body[headEnd.upperBound...].range(of: Data("\r\n".utf8) + delimiter) else { break }
            parts.append((range, Data(body[headEnd.upperBound..<next.lowerBound])))
            cursor = next.lowerBound
        }
        return parts
    }

    @Test func wrongSecretForeignHostAndTraversalAreRefused() throws {
        let server = try ServeProcess([Self.wasteland], publications: 1, home: lectern)
        defer { server.stop() }
        let client = server.client
        let base = server.path()
        let secret = base.split(separator: "/")[0]
        #expect(try client.request(base + "EPUB/wasteland.css").status == 200)
        #expect(try client.request(base + "EPUB/wasteland.css", host: "localhost:\(server.port)").status == 200)

        // The secret: missing, wrong, one character off; an unknown publication.
        let wrongSecret = String(secret.dropLast()) + (secret.last == "0" ? "1" : "0")
        for path in ["/pub/1/EPUB/wasteland.css", "/\(wrongSecret)/pub/1/EPUB/wasteland.css", "/", "/\(secret)/",
                     "/\(secret)/pub/2/EPUB/wasteland.css", "/\(secret)x/pub/1/EPUB/wasteland.css"] {
            #expect(try client.request(path).status == 404, "\(path)")
        }
        // DNS rebinding: another name, another port, no port.
        for host in ["evil.example:\(server.port)", "127.0.0.1:\(server.port + 1)", "127.0.0.1", "localhost.evil.example:\(server.port)"] {
            let response = try client.request(base + "manifest.json", host: host)
            #expect(response.status == 421, "\(host)")
            #expect(!response.text.contains("wasteland"))
        }
        // Paths that would leave the publication, and files it does not list.
        for path in ["../1/manifest.json", "EPUB/../EPUB/wasteland.css", "EPUB/%2e%2e/EPUB/wasteland.css", "EPUB/%2E%2E/%2E%2E/etc/passwd",
                     "EPUB/..%2fEPUB/wasteland.css", "EPUB%2fwasteland.css", "EPUB%5cwasteland.css", "EPUB\\wasteland.css",
                     "/etc/passwd", "%2fetc%2fpasswd", "EPUB//wasteland.css", "./EPUB/wasteland.css", "META-INF/container.xml",
                     "EPUB/", "EPUB", "mimetype", "EPUB/wasteland.css%00.jpg"] {
            #expect(try client.request(base + path).status == 404, "\(path)")
        }
        // No CORS, even when asked from another origin.
        let cross = try client.request(base + "manifest.json", headers: ["Origin": "https://evil.example"])
        #expect(cross.status == 200)
        #expect(cross.headers.keys.allSatisfy { !$0.hasPrefix("access-control-") })
        #expect(try client.request(base + "manifest.json", method: "POST").status == 405)
        #expect(server.stop() == 0)
    }
}

/// `--listen` with a non-loopback address never serves a protected publication decrypted.
@Suite struct ServeListenTests {
    @Test func aProtectedPublicationIsRefusedOffLoopback() throws {
        let result = try LecternProcess().run(["serve", ServeCommandTests.lcpWasteland, "--passphrase", "dan", "--listen", "0.0.0.0"])
        #expect(result.status == 3)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("never served decrypted on a non-loopback address"))
    }
}
