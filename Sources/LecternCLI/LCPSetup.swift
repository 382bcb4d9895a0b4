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
        let service: LCPService
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

    /// The service.
    static var service: LCPService { setup.service }

    private static func make() -> Setup {
        // A database that cannot be opened (read-only home…) must not keep books closed: the
        // licenses are then remembered for this run only.
        let store = (try? LCPSQLiteStore()) ?? (try? LCPSQLiteStore(path: ":memory:"))
        let environment = ProcessInfo.processInfo.environment
        let policy = environment[trustVariable].flatMap(LCPTrustSettings.Policy.init(rawValue:)) ?? .basicProfileTestMode
        var trust = LCPTrustSettings.default
        trust.policy = policy
        // Further roots to trust (a provider's own CA; the tests' CA), as a PEM file.
        if let path = environment[anchorsVariable], !path.isEmpty, let data = FileManager.default.contents(atPath: path),
           let extra = try? X509Certificate.certificates(pem: String(decoding: data, as: UTF8.self)) {
            trust.anchors += extra
        }
        let crlURL = environment[crlVariable] ?? LCPCRLService.defaultURL
        let crl: LCPCRLService? = crlURL.isEmpty || crlURL == "none" ? nil
            : LCPCRLService(url: crlURL, issuers: trust.anchors, repository: store.map(LCPSQLiteCRLRepository.init(store:)))
        let service = LCPService(client: BasicProfileLCPClient(trust: trust),
                                 licenseRepository: store.map(LCPSQLiteLicenseRepository.init(store:)),
                                 passphraseRepository: store.map(LCPSQLitePassphraseRepository.init(store:)),
                                 crlProvider: crl)
        return Setup(service: service, crl: crl)
    }

    /// Lets a revocation-list download that started in the background finish, for at most
    /// two seconds, before the process exits (the output is already written). Does nothing
    /// when no LCP publication was touched.
    static func finishBackgroundWork() async {
        guard let crl = made.withLock({ $0?.crl }) else { return }
        await crl.waitForRefresh(atMost: 2)
    }
}
