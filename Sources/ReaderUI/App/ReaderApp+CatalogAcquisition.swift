import Bookshelf
import FoundationEssentials
import OPDS
import Shared
import Terminal
#if canImport(Glibc)
import Glibc
#endif

extension ReaderApp {
    /// Gets a publication from a catalog with the download progress popup (Esc cancels, the
    /// partial file is deleted): open access is downloaded into the library folder and
    /// imported, an LCP borrow goes through the license, a sample is opened without import.
    func acquire(from catalog: SavedCatalog, _ publication: OPDSPublication, _ link: OPDSLink) {
        guard let services = dependencies.catalogs, let library = dependencies.library else {
            catalogMessage = "Getting books needs the library database."
            return
        }
        let client = catalogConnection(catalog, services).client
        let sample = CatalogAcquisition.isSample(link)
        let folder = sample ? XDGDirectories.cache + "/samples" : LibraryStore.publicationsFolder
        let title = publication.metadata.title
        let name = CatalogAcquisition.fileName(title: title, href: link.href, type: link.acquisitionTypes.last ?? link.type)
        let flag = CancellationFlag()
        acquisitionCancel = flag
        overlays.append(AcquisitionScreen(state: AcquisitionState(license: name)))
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
                let limits = services.downloadLimits
                result = await Blocking.run {
                    Self.download(link, into: folder, name: name, client: client, limits: limits, onProgress: onProgress,
                                  isCancelled: { flag.isCancelled })
                }
            }
            guard let self else { return }
            self.acquisitionCancel = nil
            self.removeScreens(AcquisitionScreen.self)
            switch result {
            case .success(let path) where sample:
                self.openPublication(path: path, entry: nil)
            case .success(let path):
                let outcome = await importer.importFile(path)
                if let entry = outcome.entry {
                    do throws(LibraryError) {
                        try await library.setAcquired(id: entry.id)
                        self.catalogMessage = "Added \"\(entry.title)\" to the bookshelf (q shows it)."
                    } catch {
                        self.catalogMessage = "Added \"\(entry.title)\", but not marked as acquired: \(error.userMessage)"
                    }
                } else if CatalogAcquisition.isLCP(link) {
                    self.catalogMessage = "Downloaded to \(path), but not added: \(outcome.error ?? "?")"
                } else {
                    // The download's own file (created exclusively): kept, it would only take room.
                    unlink(path)
                    self.catalogMessage = "Could not add \"\(title)\": \(outcome.error ?? "?") (the download was removed)"
                }
                self.reloadShelf(select: outcome.entry?.id)
            case .failure(let failure):
                self.catalogMessage = flag.isCancelled ? "Download cancelled." : "Could not get \"\(title)\": \(failure.message)"
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

    /// Streams the link into a new file of `folder` (never one that was there) through the
    /// catalog's client (which sends its credentials only to the catalog's origin), within
    /// `limits`; nothing is left when it fails.
    nonisolated static func download(_ link: OPDSLink, into folder: String, name: String, client: any HTTPClient,
                                     limits: DownloadLimits,
                                     onProgress: @escaping @Sendable (LicenseServices.Progress) -> Void,
                                     isCancelled: @escaping @Sendable () -> Bool) -> Result<String, OpenFailure> {
        CatalogDownload.download(link.href, into: folder, name: name, client: client, limits: limits, onProgress: { received, expected in
            let fraction = expected.flatMap { $0 > 0 ? min(1, Double(received) / Double($0)) : nil }
            onProgress(LicenseServices.Progress(fraction: fraction, received: received))
        }, isCancelled: isCancelled).mapError { OpenFailure(message: $0.description) }
    }
}
