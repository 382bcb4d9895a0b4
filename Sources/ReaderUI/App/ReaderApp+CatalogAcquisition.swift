import Bookshelf
import FoundationEssentials
import OPDS
import Shared
import Terminal

extension ReaderApp {
    /// Gets a publication from a catalog with the download progress popup (Esc cancels, the
    /// partial file is deleted): open access is downloaded into the library folder and
    /// imported, an LCP borrow goes through the license, a sample is opened without import.
    func acquire(from catalog: SavedCatalog, _ publication: OPDSPublication, _ link: OPDSLink) {
        guard let services = dependencies.catalogs, let library = dependencies.library else {
            catalogBrowser.message = "Getting books needs the library database."
            return
        }
        let client = catalogConnection(catalog, services).client
        let sample = CatalogAcquisition.isSample(link)
        let folder = sample ? XDGDirectories.cache + "/samples" : LibraryStore.publicationsFolder
        let title = publication.metadata.title
        let name = CatalogAcquisition.fileName(title: title, href: link.href, type: link.acquisitionTypes.last ?? link.type)
        let flag = CancellationFlag()
        acquisitionCancel = flag
        overlays.append(.acquisition(AcquisitionState(license: name)))
        render()
        let onProgress: @Sendable (LicenseServices.Progress) -> Void = { [weak self] progress in
            Task { @MainActor [weak self] in self?.updateAcquisition { $0.progress = progress } }
        }
        let importer = LibraryImporter(library: library, open: dependencies.open)
        Task { @MainActor [weak self] in
            XDGDirectories.ensure(folder)
            let result: Result<String, OpenFailure>
            if CatalogAcquisition.isLCP(link) {
                result = await services.borrow(link, client, folder, onProgress, { flag.isCancelled })
            } else {
                result = await Blocking.run {
                    Self.download(link, to: Self.freePath(folder + "/" + name), client: client, onProgress: onProgress,
                                  isCancelled: { flag.isCancelled })
                }
            }
            guard let self else { return }
            self.acquisitionCancel = nil
            self.overlays.removeAll { if case .acquisition = $0 { return true }; return false }
            switch result {
            case .success(let path) where sample:
                self.openPublication(path: path, entry: nil)
            case .success(let path):
                let outcome = await importer.importFile(path)
                if let entry = outcome.entry {
                    do throws(LibraryError) {
                        try await library.setAcquired(id: entry.id)
                        self.catalogBrowser.message = "Added \"\(entry.title)\" to the bookshelf (q shows it)."
                    } catch {
                        self.catalogBrowser.message = "Added \"\(entry.title)\", but not marked as acquired: \(error.userMessage)"
                    }
                } else {
                    self.catalogBrowser.message = "Downloaded to \(path), but not added: \(outcome.error ?? "?")"
                }
                self.reloadShelf(select: outcome.entry?.id)
            case .failure(let failure):
                self.catalogBrowser.message = flag.isCancelled ? "Download cancelled." : "Could not get \"\(title)\": \(failure.message)"
                self.render()
            }
        }
    }

    /// The session of a catalog, made on its first request of this visit (so that a sign-in
    /// or token serves every later request).
    func catalogConnection(_ catalog: SavedCatalog, _ services: CatalogServices) -> CatalogServices.Connection {
        if let known = catalogConnections[catalog.name] { return known }
        let made = services.connect(catalog)
        catalogConnections[catalog.name] = made
        return made
    }

    /// Streams the link to `path` through the catalog's client (which sends its credentials
    /// only to the catalog's origin).
    nonisolated static func download(_ link: OPDSLink, to path: String, client: any HTTPClient,
                                     onProgress: @escaping @Sendable (LicenseServices.Progress) -> Void,
                                     isCancelled: @escaping @Sendable () -> Bool) -> Result<String, OpenFailure> {
        guard Href.isHTTP(link.href) else { return .failure(OpenFailure(message: "only http and https downloads are supported")) }
        let result = client.download(HTTPRequest(url: link.href, timeout: 0), to: path, onProgress: { received, expected in
            let fraction = expected.flatMap { $0 > 0 ? min(1, Double(received) / Double($0)) : nil }
            onProgress(LicenseServices.Progress(fraction: fraction, received: received))
        }, isCancelled: isCancelled)
        switch result {
        case .success(let response) where response.isSuccess:
            return .success(path)
        case .success(let response):
            try? FileManager.default.removeItem(atPath: path)
            return .failure(OpenFailure(message: "the server answered HTTP \(response.statusCode)"))
        case .failure(let error):
            try? FileManager.default.removeItem(atPath: path)
            return .failure(OpenFailure(message: "\(error)"))
        }
    }

    /// `path`, or `name-2.ext`, `name-3.ext`… when a file is already there.
    nonisolated static func freePath(_ path: String) -> String {
        guard FileManager.default.fileExists(atPath: path) else { return path }
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let dot = path.lastIndex(of: ".").flatMap { $0 > slash ? $0 : nil } ?? path.endIndex
        let stem = String(path[..<dot]), ext = String(path[dot...])
        var number = 2
        while FileManager.default.fileExists(atPath: stem + "-\(number)" + ext) { number += 1 }
        return stem + "-\(number)" + ext
    }
}
