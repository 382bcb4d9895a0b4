import Bookshelf
import OPDS
import Terminal

/// The bookshelf's Catalogs view (`c`): the saved catalogs, then the feeds followed from one
/// (a stack Backspace goes back through), a publication's details and actions. Only the last
/// ``keptFeeds`` feeds of the stack stay in memory (a feed may be tens of megabytes, and one
/// whose `next` is itself can be followed forever): the older ones are fetched again when
/// Backspace reaches them, their selection restored. Pure: a key
/// gives a new state and an ``Effect`` the controller performs (network, downloads), whose
/// answers come back through ``loaded(_:generation:)`` and ``failed(_:generation:)``.
public struct CatalogBrowserState: Sendable {
    public enum Screen: Sendable {
        case feed(CatalogFeedScreen)
        case publication(CatalogPublicationScreen)
    }

    /// What the controller should do after a key.
    public enum Effect: Sendable {
        case none
        /// Back to the bookshelf.
        case close
        /// Fetch and parse a feed off the main actor, then call ``loaded`` or ``failed``.
        case load(CatalogRequest)
        /// Download (open access), borrow (LCP) or open (sample) through this link.
        case acquire(catalog: SavedCatalog, OPDSPublication, OPDSLink)
        case help
    }

    /// The saved catalogs; nil until they are read.
    public private(set) var catalogs: [SavedCatalog]?
    public var catalogList = ListState(count: 0)
    /// The catalog being browsed (nil on the list of catalogs).
    public private(set) var catalog: SavedCatalog?
    /// The feeds and publication opened from the catalog, the last one shown; at most
    /// ``keptFeeds`` feeds (the screens under them are in `dropped`).
    public private(set) var stack: [Screen] = []
    /// How many feeds of the stack are kept in memory.
    public static let keptFeeds = 5
    /// The screens under the stack, oldest first: a feed by its URL and selection, to fetch
    /// again; a publication's screen as it was (it is small).
    private var dropped: [Dropped] = []
    /// The selection of the dropped feed being fetched again.
    private var restoringSelection: Int?
    /// What is being fetched ("loading …" is shown; Escape cancels).
    public private(set) var loading: String?
    /// The search being typed (`/`).
    public private(set) var searchField: TextField?
    /// One line of feedback.
    public var message: String?
    private var generation = 0

    public init() {}

    public mutating func setCatalogs(_ catalogs: [SavedCatalog]) {
        self.catalogs = catalogs
        catalogList.reset(count: catalogs.count, selection: 0)
    }

    /// The screen shown, nil for the list of catalogs.
    public var current: Screen? { stack.last }

    public mutating func handle(_ key: Key) -> Effect {
        if loading != nil {
            if key == .escape || key == .backspace || key == .character("q") {
                loading = nil
                generation += 1
                message = "Cancelled."
                // Going back to a dropped feed, cancelled: back to the list of catalogs.
                if restoringSelection != nil { leaveCatalog() }
            }
            return .none
        }
        if var field = searchField {
            switch field.handle(key) {
            case .submitted(let terms):
                searchField = nil
                guard !terms.isEmpty, let catalog, case .feed(let screen)? = current else { return .none }
                return start(.search(screen.feed, terms), catalog: catalog, what: "searching for \"\(terms)\"…")
            case .cancelled:
                searchField = nil
            case .edited, .ignored:
                searchField = field
            }
            return .none
        }
        message = nil
        switch key {
        case .character("?"), .function(1):
            return .help
        case .character("q"):
            return .close
        case .escape, .backspace, .left, .character("h"):
            return back()
        default:
            break
        }
        switch current {
        case nil: return handleCatalogs(key)
        case .feed(var screen)?:
            if screen.list.handle(key) { stack[stack.count - 1] = .feed(screen); return .none }
            return handleFeed(key, screen)
        case .publication(var screen)?:
            if screen.list.handle(key) { stack[stack.count - 1] = .publication(screen); return .none }
            guard key == .enter || key == .right || key == .character("l"), let link = screen.selectedAction,
                  let catalog else { return .none }
            guard CatalogAcquisition.isSupported(link) else {
                message = link.acquisitionTypes.contains(CatalogFormat.adobe)
                    ? "This book is offered with Adobe DRM here, which Lectern does not support."
                    : "Lectern cannot get this (\(CatalogFormat.name(of: link)))."
                return .none
            }
            return .acquire(catalog: catalog, screen.publication, link)
        }
    }

    private mutating func handleCatalogs(_ key: Key) -> Effect {
        if catalogList.handle(key) { return .none }
        guard key == .enter || key == .right || key == .character("l"), let catalogs,
              catalogs.indices.contains(catalogList.selection) else { return .none }
        let chosen = catalogs[catalogList.selection]
        leaveCatalog()
        catalog = chosen
        return start(.feed(chosen.url), catalog: chosen, what: "loading \(chosen.name)…")
    }

    private mutating func handleFeed(_ key: Key, _ screen: CatalogFeedScreen) -> Effect {
        guard let catalog else { return .none }
        switch key {
        case .enter, .right, .character("l"):
            switch screen.selectedRow {
            case .navigation(let link)?, .facet(_, let link)?:
                return start(.feed(link.href), catalog: catalog, what: "loading \(link.title ?? "the feed")…")
            case .publication(let publication)?:
                stack.append(.publication(CatalogPublicationScreen(publication: publication)))
                dropOldFeeds()
            case nil:
                break
            }
        case .character("/"):
            if screen.feed.searchLink == nil {
                message = "This catalog offers no search here."
            } else {
                searchField = TextField()
            }
        case .character("n"), .character("p"):
            let direction: OPDSPageDirection = key == .character("n") ? .next : .previous
            guard let link = screen.feed.page(direction) else {
                message = direction == .next ? "This is the last page." : "This is the first page."
                return .none
            }
            return start(.feed(link.href), catalog: catalog, what: "loading the \(direction.rawValue) page…")
        default:
            break
        }
        return .none
    }

    private mutating func back() -> Effect {
        guard !stack.isEmpty else {
            if catalog == nil { return .close }
            catalog = nil
            return .none
        }
        stack.removeLast()
        guard stack.isEmpty else { return .none }
        switch dropped.popLast() {
        case nil:
            catalog = nil
        case .publication(let screen)?:
            stack.append(.publication(screen))
        case .feed(let url, let selection)?:
            guard let catalog else { return .none }
            restoringSelection = selection
            return start(.feed(url), catalog: catalog, what: "loading the feed again…")
        }
        return .none
    }

    /// A screen under the stack, out of memory.
    private enum Dropped: Sendable {
        case feed(url: String, selection: Int)
        case publication(CatalogPublicationScreen)
    }

    /// Moves the oldest screens out of the stack until it holds ``keptFeeds`` feeds.
    private mutating func dropOldFeeds() {
        var feeds = stack.count(where: { if case .feed = $0 { return true }; return false })
        while feeds > Self.keptFeeds, !stack.isEmpty {
            switch stack.removeFirst() {
            case .feed(let screen):
                dropped.append(.feed(url: screen.feed.url, selection: screen.list.selection))
                feeds -= 1
            case .publication(let screen):
                dropped.append(.publication(screen))
            }
        }
    }

    /// Back to the list of catalogs, forgetting the one browsed.
    private mutating func leaveCatalog() {
        stack = []
        dropped = []
        restoringSelection = nil
        catalog = nil
    }

    private mutating func start(_ kind: CatalogRequest.Kind, catalog: SavedCatalog, what: String) -> Effect {
        generation += 1
        loading = what
        return .load(CatalogRequest(catalog: catalog, kind: kind, generation: generation))
    }

    /// The answer to a load: shown over the current screen, unless it was cancelled.
    public mutating func loaded(_ feed: OPDSFeed, generation: Int) {
        guard generation == self.generation, loading != nil else { return }
        loading = nil
        var screen = CatalogFeedScreen(feed: feed)
        if let selection = restoringSelection {
            screen.list.select(selection)
            restoringSelection = nil
        }
        stack.append(.feed(screen))
        dropOldFeeds()
        if feed.navigation.isEmpty, feed.publications.isEmpty, feed.groups.isEmpty { message = "This feed is empty." }
    }

    /// A load that failed: its message is shown, the screen stays.
    public mutating func failed(_ text: String, generation: Int) {
        guard generation == self.generation, loading != nil else { return }
        loading = nil
        if stack.isEmpty { leaveCatalog() }
        message = text
    }
}

extension CatalogBrowserState {
    /// The rows the lists get (set by the controller from the window size before drawing).
    public var visibleRows: Int {
        get { catalogList.visibleRows }
        set {
            catalogList.visibleRows = newValue
            for index in stack.indices {
                switch stack[index] {
                case .feed(var screen):
                    screen.list.visibleRows = newValue
                    stack[index] = .feed(screen)
                case .publication(var screen):
                    // The details take the top of the window, the actions the rest.
                    screen.list.visibleRows = max(1, newValue / 3)
                    stack[index] = .publication(screen)
                }
            }
        }
    }
}
