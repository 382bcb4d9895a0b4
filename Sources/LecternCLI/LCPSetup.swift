import FoundationEssentials
import LCP
import LCPSQLite
import Shared

/// The LCP service of the command line: licenses and user keys in the library database
/// (`$XDG_DATA_HOME/lectern/library.sqlite`), the basic-profile client with the trust policy
/// of `LECTERN_LCP_TRUST` (`test`, the default, or `strict`).
enum LCPSetup {
    /// The environment variable choosing the trust policy.
    static let trustVariable = "LECTERN_LCP_TRUST"

    static func makeService() -> LCPService {
        // A database that cannot be opened (read-only home…) must not keep books closed: the
        // licenses are then remembered for this run only.
        let store = (try? LCPSQLiteStore()) ?? (try? LCPSQLiteStore(path: ":memory:"))
        let policy = ProcessInfo.processInfo.environment[trustVariable].flatMap(LCPTrustSettings.Policy.init(rawValue:))
            ?? .basicProfileTestMode
        var trust = LCPTrustSettings.default
        trust.policy = policy
        return LCPService(trust: trust,
                          licenseRepository: store.map(LCPSQLiteLicenseRepository.init(store:)),
                          passphraseRepository: store.map(LCPSQLitePassphraseRepository.init(store:)))
    }
}
