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
        if request.kind == .password, !rememberedPasswordOffered, let library = dependencies.library {
            rememberedPasswordOffered = true
            let identity = if let entry { entry.identity } else { await Blocking.run { ContentIdentity.of(path: path, identifier: nil) } }
            // One that cannot be read is asked for: the dialog is the way on either way.
            if let remembered = try? await library.rememberedPassword(identity: identity) { return remembered }
        }
        return await askCredentials(request)
    }

    /// After a ZIP-password publication opened: remembers its password (sealed) and gives its
    /// library entry the title and authors the locked archive hid.
    func rememberUnlocked(_ opened: OpenedPublication, path: String, entry: LibraryEntry?) {
        guard let library = dependencies.library, let service = opened.publication.contentProtectionService,
              service.scheme == Self.zipPasswordScheme, let password = service.credentials else { return }
        let metadata = opened.publication.metadata
        let title = metadata.title, authors = metadata.authors
        let format = opened.format
        Task {
            // Hashing a whole file blocks: on a Dispatch thread, not the cooperative pool.
            let identity = if let known = entry?.identity { known } else {
                await Blocking.run { ContentIdentity.of(path: path, identifier: nil) }
            }
            // Not remembered: the next open asks again, which is all a failure costs.
            do throws(LibraryError) {
                _ = try await library.rememberPassword(password, identity: identity)
            } catch {
                Self.log.warning("remembering the password of \(path) failed: \(error.userMessage)")
            }
            let read: LibraryEntry?
            do throws(LibraryError) { read = try await library.entry(identity: identity) } catch {
                Self.log.warning("reading the library entry of \(path) failed: \(error.userMessage)")
                return
            }
            guard var known = read else { return }
            let author = authors.map(\.name).joined(separator: ", ")
            guard known.title != (title ?? known.title) || known.author != author else { return }
            known.title = title ?? known.title
            known.author = author
            known.authorSortKey = authors.first?.localizedSortAs.map { $0.string.lowercased() }
                ?? LibraryStore.authorSortKey(authors.first?.name ?? "")
            if !format.isEmpty { known.format = format }
            do throws(LibraryError) { _ = try await library.add(known) } catch {
                // The title and authors the locked archive hid stay unknown on the shelf.
                Self.log.warning("updating the title of \(path) failed: \(error.userMessage)")
                let message = "The title and authors could not be recorded in the library: \(error.userMessage)"
                await MainActor.run { [weak self] in
                    guard let self, case .reader = self.page else { return }
                    self.message = message
                    self.render()
                }
            }
        }
    }

    /// Forgets the remembered password of a shelf entry (`P`).
    func forgetPassword(_ entry: LibraryEntry) {
        guard let library = dependencies.library else { return }
        Task { @MainActor in
            let title = TerminalText.singleLine(entry.title)
            do throws(LibraryError) {
                shelf.message = try await library.forgetPassword(identity: entry.identity)
                    ? "Forgot the password of \"\(title)\": the next open asks for it."
                    : "No password is remembered for \"\(title)\"."
            } catch {
                shelf.message = "The password of \"\(title)\" could not be forgotten: \(error.userMessage)"
            }
            render()
        }
    }
}
