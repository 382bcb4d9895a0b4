import Foundation
import TestSupport

/// The public LCP test vectors of `Tests/Fixtures/Samples/lcp` (lcp.md §20).
struct SampleVector: Sendable, CustomStringConvertible {
    let file: String
    /// Where the license is inside the package; nil for a bare `.lcpl`.
    let licenseEntry: String?
    let passphrase: String
    let id: String
    let contentKeyBase64: String
    let canonicalSHA256: String
    let print: Int
    let copy: Int
    let userEmail: String
    let userName: String

    var path: String { Fixtures.sample("lcp/" + file) }
    var description: String { file }

    static let wasteland = SampleVector(
        file: "r2streamerjs-wasteland-otf-obf_LCP_dan.epub", licenseEntry: "META-INF/license.lcpl", passphrase: "dan",
        id: "f327b94f-7e05-406e-8524-84ef729db700", contentKeyBase64: "Sil6/UV/qcr50a0gorWc0axhtNl5Kt2fjwMs8XdXmLM=",
        canonicalSHA256: "0f0f5a869403e69ce8c9dc838470e27a60c2565258c7130ecd90937d85eec362",
        print: 100, copy: 2048, userEmail: "daniel.weck@gmail.com", userName: "Daniel Weck")
    static let wastelandLicense = SampleVector(
        file: "r2streamerjs-wasteland-otf-obf_LCP_dan.lcpl", licenseEntry: nil, passphrase: "dan",
        id: wasteland.id, contentKeyBase64: wasteland.contentKeyBase64, canonicalSHA256: wasteland.canonicalSHA256,
        print: 100, copy: 2048, userEmail: wasteland.userEmail, userName: wasteland.userName)
    static let daisy = SampleVector(
        file: "swifttoolkit-daisy.lcpdf", licenseEntry: "license.lcpl", passphrase: "test",
        id: "b1192756-82ea-432f-a077-c0f002f04af9", contentKeyBase64: "qR6pR2uEukkUyyoOfLembizYNn6G30/N8ABKUWkcD/s=",
        canonicalSHA256: "abd6e60cf2a930e30d1ce1acdc0b18589115dc02a6dce852ba2674de9ddb2338",
        print: 2, copy: 2000, userEmail: "test@domain.com", userName: "Test Case")
    static let epubLCP = SampleVector(
        file: "swifttoolkit-epub-lcp.epub", licenseEntry: "META-INF/license.lcpl", passphrase: "test",
        id: "430dfdaf-ca71-4216-ab0c-7ccd634d7521", contentKeyBase64: "IGdnjK58SbbsvslT4It+qeqmz2taknNYyVMOW//qOys=",
        canonicalSHA256: "aea8ecf60daa93d3d29dbfa6ed227bee3d1c10802110c1b441ee88bb2c7f02d2",
        print: 2, copy: 2000, userEmail: "", userName: "")
    static let referenceServer = SampleVector(
        file: "readium-lcp-server-book-ascii.epub", licenseEntry: "META-INF/license.lcpl",
        passphrase: "correct horse battery staple", id: "4bf054dc-b5e5-41cf-99d4-73a33c253f8d", contentKeyBase64: "",
        canonicalSHA256: "", print: 10, copy: 2000, userEmail: "", userName: "")

    /// The three licenses of lcp.md §20 (each once).
    static let legacy: [SampleVector] = [wasteland, daisy, epubLCP]

    /// The license bytes.
    func licenseData() throws -> Data {
        guard let licenseEntry else { return Fixtures.bytes(path) }
        return try Self.entry(licenseEntry, of: path)
    }

    /// One entry of a ZIP package, read with `unzip` (independently of libzip).
    static func entry(_ name: String, of archive: String) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-p", archive, name]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}
