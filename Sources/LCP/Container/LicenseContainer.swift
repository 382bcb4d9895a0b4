import FoundationEssentials
import LibZip
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// Where a license lives: inside a package (`META-INF/license.lcpl` in an EPUB,
/// `license.lcpl` at the root of Readium packages), or in a bare `.lcpl` file.
public protocol LicenseContainer: Sendable {
    /// The license bytes as stored.
    func read() throws(LCPError) -> Data
    /// Replaces the stored license (a renewed or updated one from the status server).
    func write(_ license: LicenseDocument) throws(LCPError)
}

/// The license of a package read through its fetcher, and written back by rewriting the file
/// (a ZIP rewritten to a temporary file with `mimetype` first, then renamed over the
/// original; a folder gets the file replaced atomically).
public struct PackageLicenseContainer: LicenseContainer {
    /// The path of the license inside the package.
    public let entryPath: String
    /// The fetcher the package is read through.
    public let fetcher: any Fetcher
    /// The package on disk (a ZIP file or a folder); nil when it cannot be written (remote).
    public let location: String?

    public init(entryPath: String, fetcher: any Fetcher, location: String?) {
        self.entryPath = entryPath
        self.fetcher = fetcher
        self.location = location
    }

    /// The container of an asset's license: EPUBs keep it in `META-INF/`, others at the root.
    public init(asset: Asset, fetcher: any Fetcher) {
        let entry = asset.format.kind == .epub ? "META-INF/license.lcpl" : "license.lcpl"
        self.init(entryPath: entry, fetcher: fetcher, location: Href.isAbsoluteURL(asset.location) ? nil : asset.location)
    }

    public func read() throws(LCPError) -> Data {
        let resource = fetcher.get(Link(href: Href.fromPath(entryPath), mediaType: .lcpLicenseDocument))
        defer { resource.close() }
        switch resource.read() {
        case .success(let data): return data
        case .failure(.notFound): throw .licenseMissing
        case .failure(let error): throw .licenseContainer("\(entryPath): \(error)")
        }
    }

    public func write(_ license: LicenseDocument) throws(LCPError) {
        guard let location else { throw .licenseContainer("the publication is not a local file") }
        var info = stat()
        guard stat(location, &info) == 0 else { throw .licenseContainer("\(location) no longer exists") }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            try AtomicFile.write(Array(license.data), to: location + "/" + entryPath)
            return
        }
        do {
            try ZipRewriter.replaceEntries(in: location, with: [.init(path: entryPath, data: Array(license.data))],
                                           firstEntry: "mimetype")
        } catch {
            throw .licenseContainer(error.description)
        }
    }
}

/// A bare license file (`.lcpl`).
public struct FileLicenseContainer: LicenseContainer {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    public func read() throws(LCPError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw .licenseContainer("cannot read \(path)") }
        // A license is a few kilobytes; anything much larger is not one.
        guard data.count <= 1 << 20 else { throw .invalidLicense("\(path) is too large to be a license") }
        return data
    }

    public func write(_ license: LicenseDocument) throws(LCPError) {
        try AtomicFile.write(Array(license.data), to: path)
    }
}

/// Replacing a small file so that readers see the old or the new content, never half.
enum AtomicFile {
    static func write(_ bytes: [UInt8], to path: String) throws(LCPError) {
        let temporary = path + ".\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .licenseContainer("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var offset = 0
        var failed = false
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { failed = true; return }
                offset += written
            }
        }
        if fsync(fd) != 0 { failed = true }
        close(fd)
        guard !failed, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw .licenseContainer("cannot replace \(path): \(String(cString: strerror(errno)))")
        }
    }
}

/// A bare license read from a URL: it can be read, not written back.
public struct FetchedLicenseContainer: LicenseContainer {
    public let url: String
    public let fetcher: any Fetcher

    public init(url: String, fetcher: any Fetcher) {
        self.url = url
        self.fetcher = fetcher
    }

    public func read() throws(LCPError) -> Data {
        let resource = fetcher.get(Link(href: url, mediaType: .lcpLicenseDocument))
        defer { resource.close() }
        switch resource.read() {
        case .success(let data): return data
        case .failure(let error): throw .licenseContainer("\(url): \(error)")
        }
    }

    public func write(_ license: LicenseDocument) throws(LCPError) {
        throw .licenseContainer("the license was opened from \(url) and cannot be updated there")
    }
}
