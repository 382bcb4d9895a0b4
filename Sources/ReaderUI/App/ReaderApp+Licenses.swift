import Bookshelf
import FoundationEssentials
import Shared
import Synchronization
import Terminal

/// A flag set on the main actor and read by a download running elsewhere.
final class CancellationFlag: Sendable {
    private let value = Mutex(false)
    func cancel() { value.withLock { $0 = true } }
    var isCancelled: Bool { value.withLock { $0 } }
}

extension ReaderApp {
    // MARK: - License details

    func showLicense(_ entry: LibraryEntry) {
        guard entry.protection == .lcp, let services = dependencies.licenses else {
            shelf.message = "\"\(entry.title)\" has no LCP license."
            return
        }
        overlays.append(LicenseScreen(state: LicenseState(entry: entry)))
        let path = entry.path
        Task { @MainActor [weak self] in
            let result = await services.details(path)
            self?.updateLicense(entry) { state in
                switch result {
                case .success(let details): state.details = details
                case .failure(let failure): state.error = failure.message
                }
            }
        }
    }

    /// Changes the license popup of `entry` when it is still open.
    func updateLicense(_ entry: LibraryEntry, _ change: (inout LicenseState) -> Void) {
        update(LicenseScreen.self, where: { $0.state.entry.id == entry.id }) { change(&$0.state) }
    }

    /// Renews or returns (the popup shows it busy), then reads the license again.
    func runLoanAction(_ entry: LibraryEntry, renew: Bool) {
        guard let services = dependencies.licenses else { return }
        let path = entry.path
        Task { @MainActor [weak self] in
            let result = renew ? await services.renew(path) : await services.giveBack(path)
            let details = await services.details(path)
            self?.updateLicense(entry) { state in
                state.busy = false
                switch result {
                case .success(let text): state.note = text
                case .failure(let failure): state.note = failure.message
                }
                if case .success(let fresh) = details { state.details = fresh }
            }
        }
    }

    // MARK: - Acquisition

    /// Downloads the publication of a `.lcpl` into the library folder, with a progress bar;
    /// Esc cancels (the partial file is deleted). The publication is then imported.
    func acquire(license path: String) {
        guard let services = dependencies.licenses, let library = dependencies.library else {
            shelf.message = "Acquiring needs LCP and the library database."
            return
        }
        let folder = LibraryStore.publicationsFolder
        let flag = CancellationFlag()
        acquisitionCancel = flag
        overlays.append(AcquisitionScreen(state: AcquisitionState(license: path)))
        render()
        let importer = LibraryImporter(library: library, open: dependencies.open)
        let onProgress: @Sendable (LicenseServices.Progress) -> Void = { [weak self] progress in
            Task { @MainActor [weak self] in self?.updateAcquisition { $0.progress = progress } }
        }
        Task { @MainActor [weak self] in
            XDGDirectories.ensure(folder)
            let result = await services.acquire(path, folder, onProgress, { flag.isCancelled })
            guard let self else { return }
            self.acquisitionCancel = nil
            self.removeScreens(AcquisitionScreen.self)
            switch result {
            case .success(let publication):
                let outcome = await importer.importFile(publication)
                if var entry = outcome.entry {
                    entry.acquired = true
                    let marked = entry
                    do throws(LibraryError) { try await library.setAcquired(id: marked.id) } catch {
                        self.shelf.message = "Acquired \"\(entry.title)\", but removing it will not delete its file: \(error.userMessage)"
                        self.reloadShelf(select: entry.id)
                        return
                    }
                }
                self.shelf.message = outcome.entry.map { "Acquired \"\($0.title)\"." } ?? "Downloaded to \(publication), but not added: \(outcome.error ?? "?")"
                self.reloadShelf(select: outcome.entry?.id)
            case .failure(let failure):
                self.shelf.message = flag.isCancelled ? "Download cancelled." : "Could not acquire: \(failure.message)"
                self.render()
            }
        }
    }

    func updateAcquisition(_ change: (inout AcquisitionState) -> Void) {
        update(AcquisitionScreen.self) { change(&$0.state) }
    }
}
