import Bookshelf
import FoundationEssentials
import OPDS
import Shared

/// What a `catalog` command names: a saved catalog (by name) or a URL or file, with the HTTP
/// client that reaches it (signed in when the catalog was saved with a user name).
struct CatalogSource {
    /// The saved catalog, when the name was one.
    let saved: SavedCatalog?
    /// Its feed's URL or file path.
    let url: String
    let client: any HTTPClient

    /// The reader of the source's feeds: through the feed cache unless the catalog signs in
    /// (personal feeds are not kept), saying on standard error when a kept copy is shown.
    func reader(offline: Bool = false) -> CatalogReader {
        let signsIn = client is CatalogSession
        return CatalogReader(client: client, cache: signsIn ? nil : CatalogFeedCache(), offline: offline && !signsIn) { url, date in
            Output.error("offline: showing the copy of \(Diagnostics.redacted(url)) kept on \(RFC3339Date.string(date))")
        }
    }

    /// The saved catalog named `argument`, else `argument` as a URL or file. A saved name wins
    /// over a file of that name in the current folder (standard error says how to get the
    /// file); user information in a URL becomes the session's credentials, out of the URL.
    static func resolve(_ argument: String) throws -> CatalogSource {
        let isLocation = Href.isHTTP(argument) || argument.contains("/") || argument.hasPrefix("file:")
        if !isLocation {
            let isFile = FileManager.default.fileExists(atPath: argument)
            // With a file to fall back on, a library that cannot be opened is not an error.
            let saved = isFile ? (try? LibraryDatabase.catalogs().catalog(named: argument)) : try store().catalog(named: argument)
            if let saved {
                if isFile { Output.error("\(argument): the saved catalog of that name (for the file here, give ./\(argument))") }
                let moved = withoutUserInfo(saved)
                return CatalogSource(saved: moved, url: moved.url, client: client(for: moved))
            }
            if !isFile, !argument.contains(".") {
                Output.error("\(argument): no saved catalog of that name (see `lectern catalog list`)")
                throw ExitStatus.cannotOpen
            }
        }
        let split = CatalogUserInfo(splitting: argument)
        if let username = split.username {
            return CatalogSource(saved: nil, url: split.url,
                                 client: CatalogSession(catalogURL: split.url, username: username, password: split.password ?? ""))
        }
        return CatalogSource(saved: nil, url: argument, client: CurlHTTPClient())
    }

    /// A catalog saved with a user name and password in its URL (before `catalog add` took
    /// them out), with them moved to its credentials, saved so.
    static func withoutUserInfo(_ saved: SavedCatalog) -> SavedCatalog {
        let split = CatalogUserInfo(splitting: saved.url)
        guard split.hadUserInfo else { return saved }
        var moved = saved
        moved.url = split.url
        if moved.username == nil {
            moved.username = split.username
            moved.password = split.password ?? ""
        }
        let name = saved.name
        CLILog.logger.attempt("moving the user name and password out of catalog \(name)'s URL") {
            try LibraryDatabase.catalogs().save(moved)
        }
        return moved
    }

    /// The saved catalogs (the library database).
    static func store() throws -> CatalogStore {
        do { return try LibraryDatabase.catalogs() } catch {
            Output.error(error.userMessage)
            throw ExitStatus.cannotOpen
        }
    }

    /// A signed-in session when the catalog has a user name, which saves each new sign-in
    /// (token) back to the database.
    static func client(for saved: SavedCatalog) -> any HTTPClient {
        guard let username = saved.username, let password = saved.password else { return CurlHTTPClient() }
        let name = saved.name
        let signIn = CatalogSignIn(type: saved.authenticationType, tokenURL: saved.tokenURL, accessToken: saved.accessToken,
                                   lcpHashedPassphrase: saved.lcpHashedPassphrase, tokenExpiresAt: saved.tokenExpiresAt)
        return CatalogSession(catalogURL: saved.url, username: username, password: password, signIn: signIn) { signIn in
            // The session goes on with the new token; not saved, the next run signs in again.
            CLILog.logger.attempt("saving the sign-in of catalog \(name)") {
                try LibraryDatabase.catalogs().setSignIn(name: name, type: signIn.type, tokenURL: signIn.tokenURL,
                                             accessToken: signIn.accessToken, lcpHashedPassphrase: signIn.lcpHashedPassphrase,
                                             tokenExpiresAt: signIn.tokenExpiresAt)
            }
        }
    }
}
