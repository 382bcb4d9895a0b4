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
        overlays.append(.license(LicenseState(entry: entry)))
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
        guard let index = overlays.lastIndex(where: { if case .license(let state) = $0 { return state.entry.id == entry.id }; return false }),
              case .license(var state) = overlays[index] else { return }
        change(&state)
        overlays[index] = .license(state)
        render()
    }

    func handleLicense(_ state: LicenseState, key: Key) {
        var state = state
        if state.confirmingReturn {
            state.confirmingReturn = false
            if key == .character("y") || key == .character("Y") {
                runLoanAction(state, renew: false)
                return
            }
            state.note = "Not returned."
            overlays.append(.license(state))
            return
        }
        switch key {
        case .escape, .character("q"), .character("L"):
            reloadShelf(select: state.entry.id)
            return
        case .character("r") where !state.busy:
            if state.details?.canRenew == true {
                runLoanAction(state, renew: true)
                return
            }
            if let unavailable = state.details?.statusUnavailable {
                state.note = "Cannot renew now. " + unavailable
            } else {
                state.note = "This loan cannot be renewed (its status document offers no renewal)."
            }
        case .character("R") where !state.busy:
            if state.details?.canReturn == true {
                state.confirmingReturn = true
            } else if let unavailable = state.details?.statusUnavailable {
                state.note = "Cannot return now. " + unavailable
            } else {
                state.note = "This publication cannot be returned (its status document offers no return)."
            }
        case .down, .character("j"): state.top += 1
        case .up, .character("k"): state.top = max(0, state.top - 1)
        default: break
        }
        overlays.append(.license(state))
    }

    /// Renews or returns, then reads the license again.
    func runLoanAction(_ state: LicenseState, renew: Bool) {
        guard let services = dependencies.licenses else { return }
        var state = state
        state.busy = true
        state.note = renew ? "Renewing…" : "Returning…"
        overlays.append(.license(state))
        let entry = state.entry, path = entry.path
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
        overlays.append(.acquisition(AcquisitionState(license: path)))
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
            self.overlays.removeAll { if case .acquisition = $0 { return true }; return false }
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
        guard let index = overlays.lastIndex(where: { if case .acquisition = $0 { return true }; return false }),
              case .acquisition(var state) = overlays[index] else { return }
        change(&state)
        overlays[index] = .acquisition(state)
        render()
    }

    func handleAcquisition(_ state: AcquisitionState, key: Key) {
        var state = state
        if key == .escape || key == .character("q") || key == .control("c") {
            state.cancelling = true
            acquisitionCancel?.cancel()
        }
        overlays.append(.acquisition(state))
    }
}
