import ArgumentParser
import Bookshelf
import FoundationEssentials
import OPDS
import Shared

/// `lectern catalog add URL [--name NAME] [--username U] [--password P]`.
struct CatalogAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Save a catalog under a name, with the user name and password that sign in to it.",
        discussion: """
            With --username and without --password, the password is read from the terminal without \
            being shown. The password and the tokens got with it are kept in the library database \
            (readable by you alone), never in the configuration file, and are sent only to the \
            catalog's own host. Saving again under the same name replaces the catalog.
            """
    )

    @Argument(help: "The catalog's URL.")
    var url: String

    @Option(help: "The name to call it by. Default: its host name.")
    var name: String?

    @Option(help: "The user name (card number…) to sign in with.")
    var username: String?

    @Option(help: ArgumentHelp("The password (PIN…); better typed when asked, where it is not shown.", valueName: "secret"))
    var password: String?

    func run() async throws {
        guard Href.isHTTP(url) else {
            Output.error("\(Diagnostics.redacted(url)): a catalog to save is an http or https URL")
            throw ExitStatus.cannotOpen
        }
        // A user name and password written in the URL go to the credential store, not with the URL.
        let split = CatalogUserInfo(splitting: url)
        if let given = split.username, let username, given != username {
            Output.error("the URL names the user \(given) and --username \(username): give one")
            throw ExitStatus.cannotOpen
        }
        let catalogURL = split.url, user = username ?? split.username
        let name = (name ?? CatalogOrigin.of(catalogURL).map { String($0.split(separator: "/").last?.split(separator: ":").first ?? "") } ?? "")
            .trimmed
        guard !name.isEmpty, !name.contains("/") else {
            Output.error("give the catalog a name with --name (without /)")
            throw ExitStatus.cannotOpen
        }
        var secret = password ?? split.password
        if user != nil, secret == nil {
            guard let typed = TerminalSecret.read(prompt: "Password for \(name): ") else {
                Output.error("\(name): no password typed (give --password, or run in a terminal)")
                throw ExitStatus.someFailed
            }
            secret = typed
        }
        let store = try CatalogSource.store()
        do {
            try store.save(SavedCatalog(name: name, url: catalogURL, username: user, password: user == nil ? nil : secret))
        } catch {
            Output.error(error.userMessage)
            throw ExitStatus.someFailed
        }
        Output.line("saved \(name): \(Diagnostics.redacted(catalogURL))" + (user.map { " (signing in as \($0))" } ?? ""))
    }
}

/// `lectern catalog list [--json]`.
struct CatalogListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the saved catalogs.")

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let catalogs: [SavedCatalog]
        // Catalogs saved with a password in their URL have it moved out before anything is shown.
        do { catalogs = try CatalogSource.store().all().map(CatalogSource.withoutUserInfo) } catch let error as LibraryError {
            Output.error(error.userMessage)
            throw ExitStatus.cannotOpen
        }
        if json {
            Output.json(.array(catalogs.map { catalog in
                var object = JSONObject()
                object["name"] = .string(catalog.name)
                object["url"] = .string(catalog.url)
                object.set("username", catalog.username.map { .string($0) })
                object["signedIn"] = .bool(catalog.accessToken != nil || catalog.authenticationType == AuthenticationDocument.basic)
                return .object(object)
            }))
            return
        }
        if catalogs.isEmpty { Output.line("no saved catalogs (add one with `lectern catalog add URL`)") }
        for catalog in catalogs {
            Output.line("\(catalog.name)  \(catalog.url)" + (catalog.username.map { "  (as \($0))" } ?? ""))
        }
    }
}

/// `lectern catalog remove NAME`.
struct CatalogRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Forget a saved catalog, with its password and tokens.")

    @Argument(help: "The catalog's name.")
    var name: String

    func run() async throws {
        let removed: Bool
        do { removed = try CatalogSource.store().remove(named: name) } catch let error as LibraryError {
            Output.error(error.userMessage)
            throw ExitStatus.someFailed
        }
        guard removed else {
            Output.error("\(name): no saved catalog of that name")
            throw ExitStatus.cannotOpen
        }
        Output.line("removed \(name)")
    }
}

/// `lectern catalog signout NAME`.
struct CatalogSignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signout",
        abstract: "Sign out of a saved catalog: forget its password and tokens (the catalog stays saved).")

    @Argument(help: "The catalog's name.")
    var name: String

    func run() async throws {
        let store = try CatalogSource.store()
        do {
            guard var catalog = try store.catalog(named: name) else {
                Output.error("\(name): no saved catalog of that name")
                throw ExitStatus.cannotOpen
            }
            catalog.username = nil
            catalog.password = nil
            catalog.authenticationType = nil
            catalog.tokenURL = nil
            catalog.accessToken = nil
            catalog.lcpHashedPassphrase = nil
            catalog.tokenExpiresAt = nil
            try store.save(catalog)
        } catch let error as LibraryError {
            Output.error(error.userMessage)
            throw ExitStatus.someFailed
        }
        Output.line("signed out of \(name)")
    }
}
