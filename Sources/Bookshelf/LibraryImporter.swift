import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// A publication opened for the library or the reader, with what the caller's composition
/// root knows about it (the format's name, the LCP license id).
public struct OpenedPublication: Sendable {
    public let publication: Publication
    /// The format as shown ("EPUB", "Readium Audiobook"…).
    public let format: String
    /// The LCP license id, when it is an LCP publication.
    public let licenseID: String?
    /// A short description of the protection and its state, for the restricted screen.
    public let protectionName: String?

    public init(publication: Publication, format: String, licenseID: String?, protectionName: String? = nil) {
        self.publication = publication
        self.format = format
        self.licenseID = licenseID
        self.protectionName = protectionName
    }
}

/// Why a publication could not be opened at all.
public struct OpenFailure: Error, Sendable, UserMessageConvertible {
    public let message: String
    /// The protection's reason, when its protection stopped the opening (a password-protected
    /// archive whose password is missing or wrong: its metadata is then unreadable too).
    public let restriction: ProtectionRestriction?

    public init(message: String, restriction: ProtectionRestriction? = nil) {
        self.message = message
        self.restriction = restriction
    }

    /// A failure of the opener, with the protection's reason when it is one.
    public init(_ error: OpeningError) {
        self.init(message: error.userMessage, restriction: error.protectionRestriction)
    }

    /// It is a password-protected archive or PDF whose password is missing or wrong: it
    /// cannot even open restricted, and the library lists it by file name.
    public var needsPassword: Bool {
        if case .credentialsRequired(let need) = restriction { return need.kind == .password }
        return false
    }

    public var userMessage: String { message }
}

/// Opens a path: `allowUserInteraction` false when importing (never prompts), true when the
/// person opens the publication to read it, when `onAskCredentials` may be called.
public typealias PublicationOpening = @Sendable (_ path: String, _ allowUserInteraction: Bool,
                                                 _ onAskCredentials: OnAskCredentials?) async -> Result<OpenedPublication, OpenFailure>

/// Adds files and folders to the library: each publication is opened restricted, without
/// prompting, for its metadata.
public struct LibraryImporter: Sendable {
    /// Where the publications are added.
    public let library: any LibraryAccess
    public let open: PublicationOpening

    public init(library: any LibraryAccess, open: @escaping PublicationOpening) {
        self.library = library
        self.open = open
    }

    /// Adds straight to `store` (the command line).
    public init(store: LibraryStore, open: @escaping PublicationOpening) {
        self.init(library: store, open: open)
    }

    /// What happened to one file.
    public struct Outcome: Sendable {
        public let path: String
        public let entry: LibraryEntry?
        public let error: String?
        /// What happened to a book already in the library (``KnownCopy``); nil for a new one.
        public var knownCopy: KnownCopy? = nil
        /// The entry as it was when the library already held this file at this path (a
        /// re-import, as `make run` does each time); nil for a new book or another copy.
        public var previous: LibraryEntry? = nil

        /// Whether a re-import changed what the shelf shows of the book (title, author,
        /// format, protection).
        public var updated: Bool {
            guard let previous, let entry else { return false }
            return (previous.title, previous.author, previous.format, previous.protection)
                != (entry.title, entry.author, entry.format, entry.protection)
        }
    }

    /// A file whose content the library already holds, found at another path.
    public enum KnownCopy: Sendable, Hashable {
        /// The entry's own file is still there: the entry stays, this path is recorded as
        /// another location of it (``LibraryLocations``).
        case anotherLocation(entryPath: String)
        /// The entry's own file had disappeared: the entry now points here.
        case relinked(from: String)
    }

    /// Imports every publication file at `paths` (files, or folders searched recursively).
    public func importPaths(_ paths: [String]) async -> [Outcome] {
        var outcomes: [Outcome] = []
        for path in paths {
            let absolute = Self.absolutePath(path)
            let scan = await Blocking.run { PublicationFolderScan(path: absolute, extensions: Self.publicationExtensions) }
            for problem in scan.problems {
                outcomes.append(Outcome(path: problem.path, entry: nil, error: "cannot be read (\(problem.reason)); skipped"))
            }
            if scan.files.isEmpty, scan.problems.isEmpty {
                outcomes.append(Outcome(path: path, entry: nil, error: "no publication found"))
            }
            for file in scan.files { outcomes.append(await importFile(file)) }
        }
        return outcomes
    }

    /// Imports one file.
    public func importFile(_ path: String) async -> Outcome {
        let result = await open(path, false, nil)
        let entry: LibraryEntry
        var metadataHidden = false
        switch result {
        case .success(let opened):
            let publication = opened.publication
            let metadata = publication.metadata
            let identity = await Blocking.run { ContentIdentity.of(path: path, identifier: metadata.identifier) }
            let authors = metadata.authors
            entry = LibraryEntry(identity: identity, path: path, title: metadata.title ?? Self.fileName(path),
                                 author: authors.map(\.name).joined(separator: ", "),
                                 authorSortKey: authors.first?.localizedSortAs.map { $0.string.lowercased() }
                                     ?? LibraryStore.authorSortKey(authors.first?.name ?? ""),
                                 format: opened.format,
                                 protection: ProtectionMark(scheme: publication.contentProtectionService?.scheme),
                                 licenseID: opened.licenseID)
            publication.close()
        case .failure(let failure):
            guard failure.needsPassword else { return Outcome(path: path, entry: nil, error: failure.message) }
            // A password-protected archive hides its metadata: listed by file name until opened.
            let identity = await Blocking.run { ContentIdentity.of(path: path, identifier: nil) }
            entry = LibraryEntry(identity: identity, path: path, title: Self.fileName(path), format: Self.formatGuess(path),
                                 protection: .password)
            metadataHidden = true
        }
        do throws(LibraryError) {
            let metadataHidden = metadataHidden
            let (stored, knownCopy, previous) = try await library.perform { store throws(LibraryError) in
                try Self.store(entry, in: store, metadataHidden: metadataHidden)
            }
            return Outcome(path: path, entry: stored, error: nil, knownCopy: knownCopy, previous: previous)
        } catch {
            return Outcome(path: path, entry: nil, error: error.userMessage)
        }
    }

    /// Adds `entry`, or refreshes the entry of the same content. A copy at another path does
    /// not move an entry whose file is still there (the library would silently forget where
    /// the person keeps it): the path becomes another location. It relinks a missing one.
    /// `metadataHidden`: the file is a locked archive, whose entry knows only its file name,
    /// so the title and authors recorded when it was unlocked stay. Returns the stored entry,
    /// what became of a copy at another path, and the entry as it was before at this path.
    static func store(_ entry: LibraryEntry, in store: LibraryStore,
                      metadataHidden: Bool = false) throws(LibraryError) -> (LibraryEntry, KnownCopy?, LibraryEntry?) {
        let known = try store.entry(identity: entry.identity)
        var entry = entry
        if metadataHidden, let known {
            entry.title = known.title
            entry.author = known.author
            entry.authorSortKey = known.authorSortKey
            if !known.format.isEmpty { entry.format = known.format }
        }
        guard let known, known.path != entry.path else {
            return (try store.add(entry), nil, known)
        }
        let locations = LibraryLocations(store: store)
        if access(known.path, F_OK) == 0 {
            var refreshed = entry
            refreshed.path = known.path
            let stored = try store.add(refreshed)
            try locations.add(path: entry.path, publicationID: stored.id)
            return (stored, .anotherLocation(entryPath: known.path), nil)
        }
        let stored = try store.add(entry)
        try locations.relink(publicationID: stored.id, to: entry.path)
        return (stored, .relinked(from: known.path), nil)
    }

    /// The file name without its folder and extension.
    public static func fileName(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    static func formatGuess(_ path: String) -> String {
        switch path.split(separator: ".").last?.lowercased() {
        case "epub": "EPUB"
        case "pdf", "lcpdf": "PDF"
        case "cbz", "cbr", "cb7", "cbt": "Comic"
        case "mobi", "azw3", "azw", "prc": "MOBI"
        case "audiobook", "lcpa", "zab": "Audiobook"
        default: ""
        }
    }

    /// `path` made absolute against the working directory (so the library finds it later).
    public static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let base = FileManager.default.currentDirectoryPath
        var parts = base.split(separator: "/").map(String.init)
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(String(part))
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The extensions of publication files found in folders.
    public static let publicationExtensions: Set<String> = ["epub", "webpub", "audiobook", "lcpa", "lcpau", "lcpdf", "cbz", "zab", "pdf", "fb2", "cbr", "cb7", "cbt", "mobi", "azw3", "azw", "prc", "djvu", "djv"]

}
