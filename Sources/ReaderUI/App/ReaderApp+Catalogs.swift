import Bookshelf
import FoundationEssentials
import OPDS
import Shared
import Synchronization
import Terminal

extension ReaderApp {
    /// Shows the Catalogs view (`c` on the bookshelf), reading the saved catalogs in the background.
    func showCatalogs() {
        guard let services = dependencies.catalogs else {
            shelf.message = "Catalogs are not available in this build."
            return
        }
        catalogBrowser = CatalogBrowserState()
        catalogConnections = [:]
        page = .catalogs
        Task { @MainActor [weak self] in
            let result = await Blocking.run { services.saved() }
            guard let self, case .catalogs = self.page else { return }
            switch result {
            case .success(let catalogs):
                self.catalogBrowser.setCatalogs(catalogs)
            case .failure(let failure):
                self.catalogBrowser.setCatalogs([])
                self.catalogBrowser.message = failure.message
            }
            self.render()
        }
    }

    func handleCatalogs(_ key: Key) {
        if key == .control("c") { quit(); return }
        switch catalogBrowser.handle(key) {
        case .none:
            break
        case .close:
            showShelf()
        case .help:
            overlays.append(HelpScreen(help: HelpState(keyMap: config.keyMap, context: .catalogs)))
        case .load(let request):
            load(request)
        case .acquire(let catalog, let publication, let link):
            acquire(from: catalog, publication, link)
        }
    }

    /// Fetches and parses off the main actor; the answer is dropped if Escape cancelled it.
    private func load(_ request: CatalogRequest) {
        guard let services = dependencies.catalogs else { return }
        // The server unreachable, a copy kept earlier is shown: said so, with its date.
        let keptCopy = Mutex<Date?>(nil)
        let reader = catalogConnection(request.catalog, services).reader.notifying { _, fetchedAt in
            keptCopy.withLock { $0 = fetchedAt }
        }
        Task { @MainActor [weak self] in
            let result = await Blocking.run { () -> Result<OPDSFeed?, CatalogReader.Failure> in
                do throws(CatalogReader.Failure) {
                    switch request.kind {
                    case .feed(let url):
                        return .success(try reader.feed(at: url))
                    case .search(let feed, let terms):
                        // nil: the catalog offers no search after all.
                        guard let url = try reader.searchURL(in: feed, terms: terms) else { return .success(nil) }
                        return .success(try reader.feed(at: url))
                    }
                } catch {
                    return .failure(error)
                }
            }
            guard let self else { return }
            switch result {
            case .success(let feed?):
                self.catalogBrowser.loaded(feed, generation: request.generation)
                if let fetchedAt = keptCopy.withLock({ $0 }), self.catalogBrowser.message == nil {
                    self.catalogBrowser.message = "The catalog could not be reached: this is the copy kept on \(RFC3339Date.string(fetchedAt))."
                }
            case .success(nil): self.catalogBrowser.failed("This catalog offers no search.", generation: request.generation)
            case .failure(let failure): self.catalogBrowser.failed(failure.description, generation: request.generation)
            }
            if case .catalogs = self.page { self.render() }
        }
    }
}
