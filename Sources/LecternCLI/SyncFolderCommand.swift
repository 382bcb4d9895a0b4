import ArgumentParser
import Bookshelf
import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// `lectern sync folder [DIR] [--unset]`: the folder annotations are synced through.
struct SyncFolderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folder",
        abstract: "Set (or show) the folder your annotations are kept in step through.",
        discussion: """
            A folder you sync between your devices yourself (Syncthing, Nextcloud, a network \
            share): Lectern writes one file per book there, <book id>.annotation (a Readium \
            Annotation Set with deletions and modified times), and merges what the other \
            devices wrote. The folder is kept in this device's library database, as its path \
            differs from one device to another. Without DIR, prints the folder set. Exit \
            status: 0 done, 2 the folder is not a directory or none is set.
            """
    )

    @Argument(help: "The folder (it must exist).", completion: .directory)
    var directory: String?

    @Flag(help: "Stop syncing annotations through a folder.")
    var unset = false

    func validate() throws {
        if unset, directory != nil { throw ValidationError("Give a folder or --unset, not both.") }
    }

    func run() async throws {
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        if unset {
            try store.setSyncSettings([AnnotationFolderSync.settingKey: nil])
            return
        }
        guard let directory else {
            guard let folder = try store.syncSetting(AnnotationFolderSync.settingKey) else {
                Output.error("no folder is set: lectern sync folder DIR")
                throw ExitStatus.cannotOpen
            }
            Output.line(folder)
            return
        }
        let absolute = LibraryImporter.absolutePath(directory)
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory), isDirectory else {
            Output.error("\(directory): not a directory")
            throw ExitStatus.cannotOpen
        }
        try store.setSyncSettings([AnnotationFolderSync.settingKey: absolute])
        Output.line(absolute)
    }
}

/// `lectern sync now [PATH]`: merges the annotations of a book (or of every book of the
/// library) with the folder's at once.
struct SyncNowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Merge annotations with the sync folder now, for one publication or the whole library.",
        discussion: """
            Reads each book's file in the folder and its conflict copies (Syncthing's \
            *.sync-conflict-*, Nextcloud's and Dropbox's "(conflicted copy)"), keeps the newest \
            version of every annotation (a deletion too), saves it in the library and writes the \
            file back; merged conflict copies are removed. A protected book's quotes are not \
            written to the folder (its places and notes are), and the library keeps its own. A \
            file that cannot be read is told and left as it is. Exit status: 0 synced, 1 some \
            file could not be read or written, 2 no folder is set or the book cannot be opened.
            """
    )

    @Argument(help: "The publication file (every book of the library when not given).", completion: .file())
    var path: String?

    @OptionGroup var credentials: CredentialsOption

    /// For the bench (#32): where each book's merge spent its time, measured in the process.
    @Flag(help: .private)
    var timings = false

    func run() async throws {
        let (store, problem) = UIComposition.store()
        guard let store else {
            Output.error(problem ?? "the library cannot be opened")
            throw ExitStatus.cannotOpen
        }
        guard let folder = try store.syncSetting(AnnotationFolderSync.settingKey) else {
            Output.error("no sync folder is set: lectern sync folder DIR")
            throw ExitStatus.cannotOpen
        }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory else {
            Output.error("\(folder): the sync folder is not there")
            throw ExitStatus.cannotOpen
        }
        let entries: [LibraryEntry]
        if let path {
            let book = try await AnnotationCommandBook.open(path, credentials: credentials, unlocked: false)
            book.publication.close()
            entries = [book.entry]
        } else {
            entries = try store.entries(sort: .title)
        }
        let sync = AnnotationFolderSync(folder: folder)
        var failed = false
        for entry in entries {
            let (outcome, spent) = await Blocking.run {
                var spent = FolderSyncTimings()
                return (sync.sync(entry, store: store, timings: &spent), spent)
            }
            if timings { Output.line("sync timings: \(spent.summary)") }
            for problem in outcome.problems {
                Output.error("\(entry.title): \(problem)")
            }
            failed = failed || !outcome.problems.isEmpty
            if outcome.fileName == nil, path != nil {
                Output.error("\(entry.title): not synced: the book has no identifier other devices know it by")
            }
            guard outcome.saved > 0 || outcome.wrote || !outcome.removedConflicts.isEmpty else { continue }
            var said = ["\(outcome.saved) annotation(s) received"]
            if outcome.wrote { said.append("\(outcome.fileName ?? "") written") }
            if !outcome.removedConflicts.isEmpty { said.append("\(outcome.removedConflicts.count) conflict copy(ies) merged and removed") }
            Output.line("\(entry.title): " + said.joined(separator: ", "))
        }
        if failed { throw ExitStatus.someFailed }
    }
}
