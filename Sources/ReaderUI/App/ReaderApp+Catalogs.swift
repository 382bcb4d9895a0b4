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
        catalogConnections = [:]
        var catalogs = CatalogsScreen(keyMap: config.keyMap)
        if let screen { catalogs.state.visibleRows = CatalogsView.listRows(windowRows: screen.size.rows) }
        page = .catalogs(catalogs)
        Task { @MainActor [weak self] in
            let result = await Blocking.run { services.saved() }
            guard let self, case .catalogs = self.page else { return }
            self.updateCatalogs { catalogs in
                switch result {
                case .success(let saved):
                    catalogs.state.setCatalogs(saved)
                case .failure(let failure):
                    catalogs.state.setCatalogs([])
                    catalogs.state.message = failure.message
                }
            }
            self.render()
        }
    }

    /// Changes the Catalogs view's state when it is the page (an answer that comes after the
    /// view was left changes nothing: the next visit starts afresh).
    func updateCatalogs(_ change: (inout CatalogsScreen) -> Void) {
        guard case .catalogs(var catalogs) = page else { return }
        change(&catalogs)
        page = .catalogs(catalogs)
    }

    /// The Catalogs view's status line (nil when it is not the page).
    var catalogMessage: String? {
        get { if case .catalogs(let catalogs) = page { catalogs.state.message } else { nil } }
        set { updateCatalogs { $0.state.message = newValue } }
    }

    /// Fetches and parses off the main actor; the answer is dropped if Escape cancelled it.
    func loadCatalog(_ request: CatalogRequest) {
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
            let fetchedAt = keptCopy.withLock { $0 }
            self.updateCatalogs { catalogs in
                switch result {
                case .success(let feed?):
                    catalogs.state.loaded(feed, generation: request.generation)
                    if let fetchedAt, catalogs.state.message == nil {
                        catalogs.state.message = "The catalog could not be reached: this is the copy kept on \(RFC3339Date.string(fetchedAt))."
                    }
                case .success(nil): catalogs.state.failed("This catalog offers no search.", generation: request.generation)
                case .failure(let failure): catalogs.state.failed(failure.description, generation: request.generation)
                }
            }
            if case .catalogs = self.page { self.render() }
        }
    }
}
