import Bookshelf
import FoundationEssentials
import Shared

/// ZIP passwords remembered after the first unlock (``RememberedPasswords``): offered to the
/// archive before the person is asked, once per opening (a wrong one falls back to the
/// dialog), and forgotten with `P` on the bookshelf or `lectern forget-password PATH`.
extension ReaderApp {
    /// The scheme of the ZIP-password protection (the Streamer's `ZIPPasswordContentProtection`).
    static let zipPasswordScheme = "zip-password"

    /// The answer to a credentials request while opening: the remembered password first, then
    /// the dialog.
    func answerCredentials(_ request: CredentialsRequest, path: String, entry: LibraryEntry?) async -> String? {
        if request.kind == .password, !rememberedPasswordOffered, let store = dependencies.store {
            rememberedPasswordOffered = true
            let remembered = await Blocking.run { () -> String? in
                let identity = entry?.identity ?? ContentIdentity.of(path: path, identifier: nil)
                return try? RememberedPasswords(store: store).password(identity: identity)
            }
            if let remembered { return remembered }
        }
        return await askCredentials(request)
    }

    /// After a ZIP-password publication opened: remembers its password (sealed) and gives its
    /// library entry the title and authors the locked archive hid.
    func rememberUnlocked(_ opened: OpenedPublication, path: String, entry: LibraryEntry?) {
        guard let store = dependencies.store, let service = opened.publication.contentProtectionService,
              service.scheme == Self.zipPasswordScheme, let password = service.credentials else { return }
        let metadata = opened.publication.metadata
        let title = metadata.title, authors = metadata.authors
        let format = opened.format
        Task.detached {
            let identity = entry?.identity ?? ContentIdentity.of(path: path, identifier: nil)
            let passwords = RememberedPasswords(store: store)
            if (try? passwords.password(identity: identity)) != password {
                // Not remembered: the next open asks again, which is all a failure costs.
                _ = try? passwords.remember(password, identity: identity)
            }
            guard var known = try? store.entry(identity: identity) else { return }
            let author = authors.map(\.name).joined(separator: ", ")
            guard known.title != (title ?? known.title) || known.author != author else { return }
            known.title = title ?? known.title
            known.author = author
            known.authorSortKey = authors.first?.localizedSortAs.map { $0.string.lowercased() }
                ?? LibraryStore.authorSortKey(authors.first?.name ?? "")
            if !format.isEmpty { known.format = format }
            _ = try? store.add(known)
        }
    }

    /// Forgets the remembered password of a shelf entry (`P`).
    func forgetPassword(_ entry: LibraryEntry) {
        guard let store = dependencies.store else { return }
        Task { @MainActor in
            let forgotten = await Blocking.run { (try? RememberedPasswords(store: store).forget(identity: entry.identity)) ?? false }
            let title = TerminalText.singleLine(entry.title)
            shelf.message = forgotten ? "Forgot the password of \"\(title)\": the next open asks for it."
                : "No password is remembered for \"\(title)\"."
            render()
        }
    }
}
