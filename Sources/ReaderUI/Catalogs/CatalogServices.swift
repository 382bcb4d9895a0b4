import Bookshelf
import FoundationEssentials
import OPDS
import Shared

/// What the Catalogs view is given by the executable: the saved catalogs, each one's HTTP
/// session (signed in with its stored credentials, as `lectern catalog` is), and LCP borrowing
/// (the bookshelf itself knows nothing of LCP).
public struct CatalogServices: Sendable {
    /// A catalog's HTTP client and the reader of its feeds (through the feed cache unless it
    /// signs in), used for every request of one visit.
    public struct Connection: Sendable {
        public var client: any HTTPClient
        public var reader: CatalogReader
        public init(client: any HTTPClient, reader: CatalogReader) {
            self.client = client
            self.reader = reader
        }
    }

    /// The saved catalogs, read from the library database.
    public var saved: @Sendable () -> Result<[SavedCatalog], OpenFailure>
    public var connect: @Sendable (SavedCatalog) -> Connection
    /// Fetches the LCP license of a borrow or buy link through `client`, keeps the hashed
    /// passphrase the catalog gave, downloads the publication into `directory`; its path.
    public var borrow: @Sendable (_ link: OPDSLink, _ client: any HTTPClient, _ directory: String,
                                  _ onProgress: @escaping @Sendable (LicenseServices.Progress) -> Void,
                                  _ isCancelled: @escaping @Sendable () -> Bool) async -> Result<String, OpenFailure>
    /// How large and how slow an open-access download may be.
    public var downloadLimits: DownloadLimits

    public init(saved: @escaping @Sendable () -> Result<[SavedCatalog], OpenFailure>,
                connect: @escaping @Sendable (SavedCatalog) -> Connection,
                borrow: @escaping @Sendable (OPDSLink, any HTTPClient, String, @escaping @Sendable (LicenseServices.Progress) -> Void,
                                             @escaping @Sendable () -> Bool) async -> Result<String, OpenFailure>,
                downloadLimits: DownloadLimits = DownloadLimits()) {
        self.saved = saved
        self.connect = connect
        self.borrow = borrow
        self.downloadLimits = downloadLimits
    }
}
