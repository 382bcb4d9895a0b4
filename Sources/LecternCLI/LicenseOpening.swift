import Bookshelf
import FoundationEssentials
import LCP
import Shared

/// `lectern open FILE.lcpl` (what a double-click on a downloaded license runs): the publication
/// is acquired into the library's folder with the license inside (progress on standard error),
/// added to the library, and that file is what the reader opens — one action, as a person
/// expects of a license file. A license already acquired opens its publication again without
/// downloading it twice.
enum LicenseOpening {
    /// The acquired publication to read, or the reason it could not be acquired.
    static func publication(forLicense path: String) async -> Result<String, OpenFailure> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(OpenFailure(message: "\(path): cannot read the file"))
        }
        let (store, problem) = UIComposition.store()
        guard let store else { return .failure(OpenFailure(message: problem ?? "the library cannot be opened")) }
        let licenseID: String?
        do throws(LCPError) {
            licenseID = try LicenseDocument(data: data).id
        } catch {
            return .failure(OpenFailure(message: "\(path): \(error.userMessage)"))
        }
        if let licenseID, let known = acquiredEntry(licenseID: licenseID, in: store),
           FileManager.default.fileExists(atPath: known.path) {
            return .success(known.path)
        }
        let folder = LibraryStore.publicationsFolder
        XDGDirectories.ensure(folder)
        Interruption.install()
        let progress = ProgressBar()
        let result = await LCPSetup.withService { service in
            await service.acquirePublication(from: data, in: folder, onProgress: { progress.show($0) },
                                             isCancelled: { Interruption.happened })
        }
        progress.finish()
        switch result {
        case .success(let acquired):
            // The book is on disk and opens either way; what the library did not record is said,
            // since the next opening of this license would download it again.
            let outcome = await LibraryImporter(store: store, open: UIComposition.open).importFile(acquired.path)
            if let entry = outcome.entry {
                do throws(LibraryError) { try store.setAcquired(id: entry.id) } catch {
                    Output.error("\(acquired.path): not marked as acquired in the library (\(error.userMessage))")
                }
            } else if let problem = outcome.error {
                Output.error("\(acquired.path): not added to the library (\(problem))")
            }
            return .success(acquired.path)
        case .failure(let error):
            return .failure(OpenFailure(message: "\(path): \(error.userMessage)"))
        }
    }

    /// The library's acquired entry of the license; a library that cannot be read is said, and
    /// the license is acquired again.
    private static func acquiredEntry(licenseID: String, in store: LibraryStore) -> LibraryEntry? {
        do throws(LibraryError) {
            return try store.entries().first { $0.licenseID == licenseID && $0.acquired }
        } catch {
            Output.error(error.userMessage)
            return nil
        }
    }
}
