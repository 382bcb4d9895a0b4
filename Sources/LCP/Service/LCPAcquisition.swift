import Dispatch
import FoundationEssentials
import LibCrypto
import LibZip
import Logging
import Shared
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// How far the download of a publication has gone.
public enum LCPAcquisitionProgress: Sendable, Hashable {
    /// The length is known (from the license or the server): `fraction` is 0…1.
    case percent(Double, received: Int64, total: Int64)
    /// The length is unknown: only the bytes received so far.
    case indefinite(received: Int64)
}

/// A publication downloaded from its license, with the license inside.
public struct LCPAcquiredPublication: Sendable {
    /// Where the package is now.
    public let path: String
    /// Its format, sniffed from its content.
    public let format: Format
    /// The name suggested for it: the `publication` link's title with the extension of its
    /// format (`wasteland.epub`).
    public let suggestedFilename: String
    public let license: LicenseDocument
}

extension LCPService {
    /// Downloads the publication of a bare license and puts the license into it (lcp.md §18).
    ///
    /// 1. The license is parsed, its profile and signature checked (no passphrase needed).
    /// 2. The `publication` link is downloaded (redirects followed) into a temporary file,
    ///    mode 0600, in `directory`, reporting progress; `isCancelled` (or cancelling the task)
    ///    stops it.
    /// 3. Its `length` and `hash` (SHA-256, hexadecimal or base64) are checked when the link
    ///    has them; a mismatch deletes the file.
    /// 4. Its format is sniffed from its content: servers label `.lcpdf` and `.lcpa` packages
    ///    `application/epub+zip`.
    /// 5. The license is injected (``injectLicense(_:intoPackageAt:)``), the license stored,
    ///    and the file renamed to `fileName`, or to the suggested name made unique in
    ///    `directory`.
    ///
    /// Nothing is left behind when it fails or is cancelled.
    public func acquirePublication(from lcpl: Data, in directory: String, fileName: String? = nil,
                                   onProgress: @escaping @Sendable (LCPAcquisitionProgress) -> Void = { _ in },
                                   isCancelled: @escaping @Sendable () -> Bool = { false }) async
        -> Result<LCPAcquiredPublication, LCPError> {
        let license: LicenseDocument
        do throws(LCPError) {
            license = try LicenseDocument(data: lcpl)
            guard client.supportedProfiles.contains(license.encryption.profile) else {
                throw .profileNotSupported(license.encryption.profile)
            }
            try client.checkSignature(jsonLicense: license.text)
        } catch {
            return .failure(error)
        }
        let link = license.publicationLink
        guard Href.isHTTP(link.href) else {
            return .failure(.publicationUnavailable("its address is not an HTTP URL: \(link.href)"))
        }

        let temporary = directory + "/.lectern-\(UInt64.random(in: 0...UInt64.max)).part"
        do {
            try await download(link, to: temporary, onProgress: onProgress, isCancelled: isCancelled)
            try Self.verify(temporary, against: link)
            let format = try sniffPackage(temporary, link: link)
            try injectLicense(license, intoPackageAt: temporary, format: format)
            let suggested = Self.suggestedFilename(license: license, format: format)
            let destination = directory + "/" + (fileName ?? Self.unusedName(suggested, in: directory))
            guard rename(temporary, destination) == 0 else {
                throw LCPError.licenseContainer("cannot move the publication to \(destination): \(String(cString: strerror(errno)))")
            }
            Self.syncDirectory(directory)
            do {
                try licenses?.addLicense(license, publicationPath: LCPContentProtection.absolutePath(destination))
            } catch {
                // The license is inside the package: the first opening records it again.
                LCPLicense.log.warning("license \(license.id): acquired, but not recorded in the database yet: \(error)")
            }
            return .success(LCPAcquiredPublication(path: destination, format: format, suggestedFilename: suggested,
                                                   license: license))
        } catch {
            unlink(temporary)
            return .failure(error as? LCPError ?? .publicationUnavailable("\(error)"))
        }
    }

    /// Downloads with the HTTP client on a background thread.
    private func download(_ link: LicenseLink, to path: String, onProgress: @escaping @Sendable (LCPAcquisitionProgress) -> Void,
                          isCancelled: @escaping @Sendable () -> Bool) async throws(LCPError) {
        let cancelled = Mutex(false)
        let stop: @Sendable () -> Bool = { cancelled.withLock { $0 } || isCancelled() }
        let announced = link.length.map(Int64.init)
        let request = HTTPRequest(url: link.href, headers: ["Accept": "*/*"], timeout: downloadTimeout)
        let client = httpClient
        let result: Result<HTTPResponse, HTTPError> = await withTaskCancellationHandler {
            await Blocking.run {
                client.download(request, to: path, onProgress: { received, expected in
                    if let total = announced ?? expected, total > 0 {
                        onProgress(.percent(min(Double(received) / Double(total), 1), received: received, total: total))
                    } else {
                        onProgress(.indefinite(received: received))
                    }
                }, isCancelled: stop)
            }
        } onCancel: {
            cancelled.withLock { $0 = true }
        }
        switch result {
        case .success(let response) where response.isSuccess:
            if stop() { throw .cancelled }
        case .success(let response):
            throw .publicationUnavailable("the server answered HTTP \(response.statusCode) for \(link.href)")
        case .failure(.cancelled):
            throw .cancelled
        case .failure(let error):
            throw stop() ? .cancelled : .publicationUnavailable(error.description)
        }
    }

    /// Checks the downloaded file against the link's `length` and `hash`.
    static func verify(_ path: String, against link: LicenseLink) throws(LCPError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .publicationUnavailable("the download vanished") }
        if let expected = link.length, Int(info.st_size) != expected {
            throw .publicationLengthMismatch(expected: expected, received: Int(info.st_size))
        }
        guard link.hash != nil else { return }
        guard let expected = link.hashBytes else {
            throw .invalidLicense("the publication `hash` is neither 64 hexadecimal digits nor base64 SHA-256")
        }
        let received = try sha256(ofFile: path)
        guard received == expected else {
            throw .publicationHashMismatch(expected: expected.hexString, received: received.hexString)
        }
    }

    /// The SHA-256 of a file, read in 1 MB chunks.
    static func sha256(ofFile path: String) throws(LCPError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .publicationUnavailable("cannot read the download") }
        defer { close(fd) }
        var digest = Digest(.sha256)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 { throw .publicationUnavailable("cannot read the download") }
            if count == 0 { break }
            digest.update(buffer[0..<count])
        }
        return digest.finalize()
    }

    /// The format of a downloaded package, from its content; the link's type and title are
    /// only hints (the reference server labels every package `application/epub+zip`).
    private func sniffPackage(_ path: String, link: LicenseLink) throws(LCPError) -> Format {
        let archive: ZipArchive
        do {
            archive = try ZipArchive(path: path)
        } catch {
            throw .notAPublication(error == .notAnArchive ? "not a ZIP package" : error.description)
        }
        defer { archive.close() }
        var hints = FormatHints(path: link.href, mediaType: link.mediaType)
        if let title = link.title { hints = hints.merging(FormatHints(path: title)) }
        var format = sniffer.sniff(archive: archive, hints: hints)
        guard format.isPublication, format.isZIPPackage else { throw .notAPublication(Format.describe(format)) }
        format.isLCPProtected = true
        return format
    }

    /// Puts `license` into the package at `path`: `META-INF/license.lcpl` in an EPUB,
    /// `license.lcpl` at the root of Readium packages (LCP §7.2). The ZIP is rewritten to a
    /// temporary file (`mimetype` first and stored), synced, and renamed over the original.
    public func injectLicense(_ license: LicenseDocument, intoPackageAt path: String, format: Format? = nil) throws(LCPError) {
        let kind: Format.Kind
        if let format {
            kind = format.kind
        } else {
            do {
                let archive = try ZipArchive(path: path)
                kind = sniffer.sniff(archive: archive).kind
                archive.close()
            } catch {
                throw .licenseContainer(error.description)
            }
        }
        do {
            try ZipRewriter.replaceEntries(in: path, with: [.init(path: Self.licenseEntry(for: kind), data: Array(license.data))],
                                           firstEntry: "mimetype")
        } catch {
            throw .licenseContainer(error.description)
        }
    }

    /// Where the license lives in a package of this kind.
    static func licenseEntry(for kind: Format.Kind) -> String {
        kind == .epub ? "META-INF/license.lcpl" : "license.lcpl"
    }

    /// The link's title (else the license id), made a safe file name, with the extension of
    /// the package's format.
    static func suggestedFilename(license: LicenseDocument, format: Format) -> String {
        let title = license.publicationLink.title?.trimmed ?? ""
        var name = String(String.UnicodeScalarView(title.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control || TerminalText.isBidiControl(scalar)
                || "/\\:*?\"<>|".unicodeScalars.contains(scalar) ? "_" : scalar
        }))
        while name.hasPrefix(".") { name.removeFirst() }
        if name.isEmpty { name = license.id }
        if name.utf8.count > 200 { name = String(name.prefix(100)) }
        return name + "." + fileExtension(of: format)
    }

    static func fileExtension(of format: Format) -> String {
        switch format.kind {
        case .epub: "epub"
        case .lcpdf: "lcpdf"
        case .lcpa: "lcpa"
        case .webpub: "webpub"
        case .audiobook: "audiobook"
        case .divina: "divina"
        case .cbz: "cbz"
        case .zab: "zab"
        default: "zip"
        }
    }

    /// `name`, or `name (2)`, `name (3)`… when taken.
    static func unusedName(_ name: String, in directory: String) -> String {
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        let stem = name[..<dot], ext = name[dot...]
        var candidate = name
        var number = 2
        while access(directory + "/" + candidate, F_OK) == 0 {
            candidate = "\(stem) (\(number))\(ext)"
            number += 1
        }
        return candidate
    }

    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
