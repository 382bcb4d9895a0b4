import ArgumentParser
import Bookshelf
import FoundationEssentials
import Shared

/// `lectern forget-password PATH`: forgets the remembered password of a ZIP-password
/// publication (the bookshelf's `P`), so that the next open asks for it.
struct ForgetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget-password",
        abstract: "Forget the remembered password of a password-protected publication.",
        discussion: "A ZIP password is remembered (encrypted, in the library database) after the publication is first unlocked in the reader. Exit status: 0 forgotten, 1 none was remembered, 2 the library cannot be opened or written."
    )

    @Argument(help: "The publication file (as imported, or the same file elsewhere).", completion: .file())
    var path: String

    func run() async throws {
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        let absolute = LibraryImporter.absolutePath(path)
        // The entry imported from this path, and the file's own content identity (the same
        // book found elsewhere, or opened without importing).
        var identities: [String] = []
        var forgotten = false
        do throws(LibraryError) {
            if let entry = try store.entries().first(where: { $0.path == absolute }) { identities.append(entry.identity) }
            identities.append(await Blocking.run { ContentIdentity.of(path: absolute, identifier: nil) })
            let passwords = RememberedPasswords(store: store)
            for identity in identities where try passwords.forget(identity: identity) { forgotten = true }
        } catch {
            // Not "none was remembered": the password may still be there.
            Output.error("\(absolute): the password could not be forgotten: \(error.userMessage)")
            throw ExitStatus.cannotOpen
        }
        if forgotten {
            Output.line("forgot the password of \(absolute)")
            Output.flush()
        } else {
            Output.error("\(absolute): no password is remembered")
            throw ExitStatus.someFailed
        }
    }
}
