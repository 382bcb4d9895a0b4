import Bookshelf
import FoundationEssentials
import LCP
import LCPSQLite
import ReaderUI
import Shared

/// What the terminal interface is given: the library, and how to open publications (with
/// every protection of ``PublicationLoader``, LCP included).
enum UIComposition {
    /// The library of the process's database; nil (with the reason) when it cannot be opened.
    static func store() -> (LibraryStore?, String?) {
        switch LibraryDatabase.process {
        case .success(let database): (database.library, nil)
        case .failure(let error): (nil, error.userMessage)
        }
    }

    /// Opens through ``PublicationLoader`` on Dispatch threads: opening reads archives,
    /// decrypts and may wait on a License Status server, none of which may hold the
    /// cooperative pool the interface's tasks share.
    static let open: PublicationOpening = { path, allowUserInteraction, onAskCredentials in
        await Blocking.offPool { () async -> Result<OpenedPublication, OpenFailure> in
            do throws(LoadError) {
                let opened = try await PublicationLoader().open(path, credentials: nil, allowUserInteraction: allowUserInteraction,
                                                                onAskCredentials: onAskCredentials, deferringNavigation: true)
                let publication = opened.publication
                let protection = publication.contentProtectionService
                return .success(OpenedPublication(publication: publication, format: opened.asset.format.displayName,
                                                  licenseID: publication.lcpLicense?.license.id,
                                                  protectionName: protection.map { $0.name?.string ?? $0.scheme }))
            } catch {
                switch error {
                case .opening(let opening): return .failure(OpenFailure(opening))
                case .asset: return .failure(OpenFailure(message: error.userMessage))
                }
            }
        }
    }

    /// The interface's dependencies, on the process's database (opened here when nothing
    /// opened it yet): the library, and the LCP licenses the shelf's loan column reads.
    static func dependencies() -> ReaderApp.Dependencies {
        let database = try? LibraryDatabase.process.get()
        var dependencies = ReaderApp.Dependencies(library: database.map { Library(store: $0.library) }, open: open,
                                                  config: ReaderConfig.load())
        dependencies.licenses = UILicenseServices.make()
        dependencies.loanStates = loanStates(database?.lcp)
        dependencies.makeAudiobookPlayback = UIAudiobookPlayback.factory
        dependencies.browserServing = UIBrowserServing.serve
        dependencies.catalogs = UICatalogServices.make()
        dependencies.annotations = database.map { SyncFolderReaderHooks.syncing(UIAnnotations.factory($0), store: $0.library) }
        dependencies.progressSync = database.map { SyncCommandReaderHooks.make(store: $0.library) }
        dependencies.annotationRefreshInterval = database.flatMap { SyncFolderReaderHooks.refreshInterval(store: $0.library) }
        return dependencies
    }

    /// The loans of the LCP license repository (in the library database), as the bookshelf
    /// shows them at each reload, on the store opened once; none when there is no database or
    /// the repository cannot be read.
    static func loanStates(_ store: LCPSQLiteStore?) -> LoanStateSource {
        let repository = store.map(LCPSQLiteLicenseRepository.init(store:))
        return { now in
            // The shelf still lists the books, without loan dates; the reason is logged.
            guard let repository, let loans = CLILog.logger.attempt("reading the loans of the LCP licenses", { () throws(LCPError) in
                try repository.loans()
            }) else { return [:] }
            var states: [String: LoanState] = [:]
            for loan in loans {
                states[loan.licenseID] = LoanState(status: loan.status, rightsStart: loan.rightsStart, rightsEnd: loan.rightsEnd, now: now)
            }
            return states
        }
    }
}
