import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

extension LibraryImporter {
    /// Why a relink was refused, as the person is told.
    public struct RelinkFailure: Error, Sendable, UserMessageConvertible {
        public let message: String
        public var userMessage: String { message }
    }

    /// Points `entry`, whose file disappeared, at `path` once the file there is the same book:
    /// its content identity (``ContentIdentity``) must be the entry's, so that a reading
    /// position and bookmarks never move to another book. The file is opened without prompting
    /// (a password-protected archive is identified by its bytes, as when it was imported).
    public func relink(_ entry: LibraryEntry, to path: String) async -> Result<LibraryEntry, RelinkFailure> {
        let absolute = Self.absolutePath(path)
        // The file's name: the whole path would not fit on the status line.
        let shown = TerminalText.singleLine(absolute.split(separator: "/").last.map(String.init) ?? absolute)
        guard await Blocking.run({ ContentIdentity.fileSize(absolute) != nil || Self.isFolder(absolute) }) else {
            return .failure(RelinkFailure(message: "No publication file at \(shown)."))
        }
        let identifier: String?
        switch await open(absolute, false, nil) {
        case .success(let opened):
            identifier = opened.publication.metadata.identifier
            opened.publication.close()
        case .failure(let failure):
            guard failure.needsPassword else {
                return .failure(RelinkFailure(message: "\(shown) cannot be opened: \(TerminalText.singleLine(failure.message))"))
            }
            identifier = nil
        }
        let identity = await Blocking.run { ContentIdentity.of(path: absolute, identifier: identifier) }
        guard identity == entry.identity else {
            return .failure(RelinkFailure(message: "\(shown) is not the same book as \"\(TerminalText.singleLine(entry.title))\": nothing changed."))
        }
        do throws(LibraryError) {
            let relinked = try await library.perform { store throws(LibraryError) in
                try LibraryLocations(store: store).relink(publicationID: entry.id, to: absolute)
            }
            return .success(relinked ?? entry)
        } catch {
            return .failure(RelinkFailure(message: error.userMessage))
        }
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
