import Foundation
import LCP
import LibCrypto
import Shared
import TestSupport

/// A protected package served by the test server at `/files/<name>`, as a content server
/// stores it (no license inside), with the bare license that points to it.
struct ServedPublication {
    let license: ForgedLicense
    /// The package as served.
    let packagePath: String
    /// The bare license, written next to nowhere in particular.
    let lcplPath: String
    let url: String
    let chapters: [ForgedResource]

    var packageData: Data { Fixtures.bytes(packagePath) }

    enum Kind { case epub, lcpdf, lcpa }

    /// Builds the package and its license, and serves the package.
    ///
    /// - Parameters:
    ///   - serve: options of the served file (`ranges`, `mode`, `content_type`…).
    ///   - link: changes to the license's `publication` link and the rest of the license, after
    ///     its length and hash are set from the package.
    static func make(on server: StatusServer, name: String = "book", kind: Kind = .epub, chapters: [ForgedResource]? = nil,
                     serve: [String: Any] = [:], link: (inout LicenseSpec) -> Void = { _ in }) throws -> ServedPublication {
        let directory = Fixtures.temporaryDirectory("lcp-served")
        let contentKey = LicenseForge.randomBytes(32)
        let packagePath = directory + "/" + name + ".package"
        let resources: [ForgedResource]
        switch kind {
        case .epub:
            resources = chapters ?? PackageForge.defaultResources()
            try PackageForge.epub(at: packagePath, license: nil, contentKey: contentKey, resources: resources)
        case .lcpdf:
            resources = chapters ?? [ForgedResource("publication.pdf", Data("%PDF-1.7\n".utf8) + PackageForge.text(40_000),
                                                    mediaType: "application/pdf")]
            try PackageForge.readiumPackage(at: packagePath, license: nil, contentKey: contentKey,
                                            conformsTo: "https://readium.org/webpub-manifest/profiles/pdf", readingOrder: resources)
        case .lcpa:
            resources = chapters ?? [ForgedResource("track1.mp3", Data(LicenseForge.randomBytes(50_000)), mediaType: "audio/mpeg")]
            try PackageForge.readiumPackage(at: packagePath, license: nil, contentKey: contentKey,
                                            conformsTo: "https://readium.org/webpub-manifest/profiles/audiobook", readingOrder: resources)
        }
        let data = Fixtures.bytes(packagePath)
        var spec = LicenseSpec()
        spec.publicationURL = server.fileURL(name)
        spec.publicationType = "application/epub+zip"
        spec.publicationTitle = "Served Book"
        spec.publicationLength = data.count
        spec.publicationHash = Digest.sha256(data).hexString
        link(&spec)
        let license = try LicenseForge.make(spec, contentKey: contentKey)
        let lcplPath = directory + "/" + name + ".lcpl"
        try license.data.write(to: URL(fileURLWithPath: lcplPath))
        var options = serve
        options["path"] = packagePath
        if options["content_type"] == nil { options["content_type"] = "application/epub+zip" }
        try server.serveFile(name, options)
        return ServedPublication(license: license, packagePath: packagePath, lcplPath: lcplPath, url: server.fileURL(name),
                                 chapters: resources)
    }
}

/// Collects what a callback reports, from any thread.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) { lock.withLock { values.append(value) } }
    var all: [Value] { lock.withLock { values } }
}
