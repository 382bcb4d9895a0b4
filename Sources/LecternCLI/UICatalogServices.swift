import Bookshelf
import FoundationEssentials
import LCP
import OPDS
import ReaderUI
import Shared

/// The Catalogs view's services, over what `lectern catalog` uses: ``CatalogSource`` for the
/// signed-in session and the feed cache, ``CatalogBorrow`` and ``CatalogPassphrase`` for LCP loans.
enum UICatalogServices {
    static func make() -> CatalogServices {
        CatalogServices(
            saved: {
                do throws(LibraryError) { return .success(try LibraryDatabase.catalogs().all().map(CatalogSource.withoutUserInfo)) } catch {
                    return .failure(OpenFailure(message: error.userMessage))
                }
            },
            connect: { saved in
                // Quiet: a kept copy read offline is not announced on standard error under the interface.
                let client = CatalogSource.client(for: saved)
                let signsIn = client is CatalogSession
                return CatalogServices.Connection(client: client, reader: CatalogReader(client: client, cache: signsIn ? nil : CatalogFeedCache()))
            },
            borrow: { link, client, directory, onProgress, isCancelled in
                let license: Data, hashed: String?
                do throws(CatalogBorrow.Failure) { (license, hashed) = try await CatalogBorrow.license(from: link, client: client) } catch {
                    return .failure(OpenFailure(message: error.description))
                }
                let signIn = (client as? CatalogSession)?.signIn
                // Under the interface the screen has no room for it; the passphrase prompt follows.
                if let problem = CatalogPassphrase.store(hashed ?? signIn?.lcpHashedPassphrase, typed: nil, license: license) {
                    CLILog.logger.warning("\(problem)")
                }
                // Held to the download limits through the acquisition's callbacks.
                let limit = DownloadGuard(downloadLimits())
                let result = await Blocking.offPool {
                    await UILicenseServices.acquire(license: license, in: directory, onProgress: { progress in
                        limit.observe(received: progress.received, expected: nil)
                        onProgress(progress)
                    }, isCancelled: { limit.mustStop() || isCancelled() })
                }
                if case .failure = result, let reason = limit.reason { return .failure(OpenFailure(message: reason.description)) }
                return result
            },
            downloadLimits: downloadLimits())
    }

    /// The environment's limits; a value that cannot be used leaves the default, with a warning
    /// in the log (the interface has no line for it before the Catalogs view opens).
    static func downloadLimits() -> DownloadLimits {
        switch DownloadLimits.fromEnvironment(ProcessInfo.processInfo.environment) {
        case .success(let limits): return limits
        case .failure(let error):
            CLILog.logger.warning("\(error.description); using the default download limits")
            return DownloadLimits()
        }
    }
}
