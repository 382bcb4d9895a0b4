import Bookshelf
import FoundationEssentials
import LCP
import LCPSQLite
import LibCrypto
import Shared
import Synchronization

/// The LCP service of the command line: licenses, user keys and the revocation list in the
/// library database (`$XDG_DATA_HOME/lectern/library.sqlite`), the basic-profile client with
/// the trust policy of `LECTERN_LCP_TRUST` (`test`, the default, or `strict`), and the
/// certificate revocation list of `LECTERN_LCP_CRL_URL` (EDRLab's production CRL by default;
/// `none` turns revocation checks off); `LECTERN_LCP_ANCHORS` names a PEM file of further
/// trusted roots.
///
/// One service per process, made on first use.
enum LCPSetup {
    /// The environment variable choosing the trust policy.
    static let trustVariable = "LECTERN_LCP_TRUST"
    /// The environment variable giving the CRL's URL.
    static let crlVariable = "LECTERN_LCP_CRL_URL"
    /// The environment variable naming a PEM file of further trusted roots.
    static let anchorsVariable = "LECTERN_LCP_ANCHORS"

    private struct Setup: Sendable {
        let service: Result<LCPService, LCPError>
        let crl: LCPCRLService?
    }

    private static let made = Mutex<Setup?>(nil)

    private static var setup: Setup {
        made.withLock { made in
            if let made { return made }
            let setup = make()
            made = setup
            return setup
        }
    }

    /// The service, or why LCP publications cannot be opened on this machine now.
    static var service: Result<LCPService, LCPError> { setup.service }

    /// Runs `body` with the service, or fails with why there is none.
    static func withService<T>(_ body: (LCPService) async -> Result<T, LCPError>) async -> Result<T, LCPError> {
        switch service {
        case .success(let service): await body(service)
        case .failure(let error): .failure(error)
        }
    }

    private static func make() -> Setup {
        // Without its database, LCP would grant each run the license's whole copy and print
        // allowance again, however much was already used: protected books stay closed, and
        // say why, until the database can be opened.
        let path = LibraryStore.defaultPath
        let store: LCPSQLiteStore
        switch LibraryDatabase.process {
        case .success(let database): store = database.lcp
        case .failure(let error):
            let reason = error.message
            return Setup(service: .failure(.repository(
                "\(path) cannot be opened: \(reason); LCP books are refused so that the copy and print rights "
                    + "already used are not granted again — check that the directory exists and is writable, "
                    + "or set XDG_DATA_HOME")), crl: nil)
        }
        let environment = ProcessInfo.processInfo.environment
        let policy = environment[trustVariable].flatMap(LCPTrustSettings.Policy.init(rawValue:)) ?? .basicProfileTestMode
        var trust = LCPTrustSettings.default
        trust.policy = policy
        // Further roots to trust (a provider's own CA; the tests' CA), as a PEM file.
        // One that cannot be had leaves the default roots; books of that provider are then
        // refused as untrusted, and the log says which file was at fault.
        if let path = environment[anchorsVariable], !path.isEmpty {
            if let data = FileManager.default.contents(atPath: path) {
                trust.anchors += CLILog.logger.attempt("reading the certificates of \(anchorsVariable)=\(path)") {
                    try X509Certificate.certificates(pem: String(decoding: data, as: UTF8.self))
                } ?? []
            } else {
                CLILog.logger.warning("\(anchorsVariable)=\(path) cannot be read; only the default roots are trusted")
            }
        }
        let crlURL = environment[crlVariable] ?? LCPCRLService.defaultURL
        let crl: LCPCRLService? = crlURL.isEmpty || crlURL == "none" ? nil
            : LCPCRLService(url: crlURL, issuers: trust.anchors, repository: LCPSQLiteCRLRepository(store: store))
        let service = LCPService(client: BasicProfileLCPClient(trust: trust),
                                 licenseRepository: LCPSQLiteLicenseRepository(store: store),
                                 passphraseRepository: LCPSQLitePassphraseRepository(store: store),
                                 crlProvider: crl)
        return Setup(service: .success(service), crl: crl)
    }

    /// Lets a revocation-list download that started in the background finish, for at most
    /// two seconds, before the process exits (the output is already written). Does nothing
    /// when no LCP publication was touched.
    static func finishBackgroundWork() async {
        guard let crl = made.withLock({ $0?.crl }) else { return }
        await crl.waitForRefresh(atMost: 2)
    }
}
