import Bookshelf
import FoundationEssentials
import LCP
import ReaderUI
import Shared

/// The bookshelf's LCP actions, on the process's ``LCPSetup/service``: license details
/// (``LicenseSummary``), renew (the provider's default period; a web renew page is named),
/// return, and acquisition from a `.lcpl`.
enum UILicenseServices {
    static func make() -> LicenseServices {
        LicenseServices(
            details: { path in
                switch await retrieve(path) {
                case .success(let license):
                    let summary = await LicenseSummary(license: license)
                    // A license that names a status document but came without one: its server did not answer.
                    let unreachable = license.status == nil && license.license.link(LicenseRel.status) != nil
                    return .success(LicenseServices.Details(fields: summary.panelFields.map { LicenseServices.Field($0.0, $0.1) },
                                                            canRenew: license.canRenewLoan, canReturn: license.canReturnPublication,
                                                            statusUnavailable: unreachable ? Self.unreachableNote : nil))
                case .failure(let failure):
                    return .failure(failure)
                }
            },
            renew: { path in
                let license: LCPLicense
                switch await retrieve(path) {
                case .success(let found): license = found
                case .failure(let failure): return .failure(failure)
                }
                let delegate = CommandLineRenewDelegate(end: nil)
                do throws(LCPError) {
                    try await license.renewLoan(with: delegate)
                } catch {
                    return .failure(OpenFailure(message: "Not renewed: \(error.userMessage)"))
                }
                if let page = delegate.webPage { return .success("Renew on the provider's page: \(page)") }
                let end = license.rightsEnd.map { " The loan now ends on \(RFC3339Date.display($0))." } ?? ""
                return .success("Renewed.\(end)")
            },
            giveBack: { path in
                let license: LCPLicense
                switch await retrieve(path) {
                case .success(let found): license = found
                case .failure(let failure): return .failure(failure)
                }
                do throws(LCPError) {
                    try await license.returnPublication()
                } catch {
                    return .failure(OpenFailure(message: "Not returned: \(error.userMessage)"))
                }
                return .success("Returned: the publication no longer opens on this device.")
            },
            acquire: { lcpl, directory, onProgress, isCancelled in
                guard let data = FileManager.default.contents(atPath: lcpl) else {
                    return .failure(OpenFailure(message: "\(lcpl): cannot read the file"))
                }
                return await acquire(license: data, in: directory, onProgress: onProgress, isCancelled: isCancelled)
            })
    }

    /// Acquires the publication of `license` into `directory` (a `.lcpl` opened from the shelf,
    /// or a loan borrowed from a catalog), reporting its download; the path it was saved at.
    static func acquire(license: Data, in directory: String, onProgress: @escaping @Sendable (LicenseServices.Progress) -> Void,
                        isCancelled: @escaping @Sendable () -> Bool) async -> Result<String, OpenFailure> {
        let result = await LCPSetup.withService { service in
            await service.acquirePublication(from: license, in: directory, onProgress: { progress in
                switch progress {
                case .percent(let fraction, let received, _): onProgress(LicenseServices.Progress(fraction: fraction, received: received))
                case .indefinite(let received): onProgress(LicenseServices.Progress(fraction: nil, received: received))
                }
            }, isCancelled: isCancelled)
        }
        switch result {
        case .success(let acquired): return .success(acquired.path)
        case .failure(let error): return .failure(OpenFailure(message: error.userMessage))
        }
    }

    static let unreachableNote = "The license's status server cannot be reached (offline?): renewing and returning need it; try again when connected."

    /// The license, validated as when opening, without prompting (a remembered passphrase
    /// unlocks it; details are shown without one).
    private static func retrieve(_ path: String) async -> Result<LCPLicense, OpenFailure> {
        await Blocking.offPool {
            let result = await LCPSetup.withService { service in
                await service.retrieveLicense(path: path, credentials: nil, authentication: nil, allowUserInteraction: false)
            }
            return result.mapError { OpenFailure(message: $0.userMessage) }
        }
    }
}
