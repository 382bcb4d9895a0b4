import Annotations
import Bookshelf
import OPDS
import Shared
import TextLayout

/// What a layer asks of the application after a key, carried out in order
/// (``ReaderApp/perform(_:)``).
@MainActor
enum ScreenEffect {
    /// Closes the layer that handled the key: exactly one layer.
    case pop
    /// The key is not the layer's: the page handles it (the layer stays, over the page).
    case passThrough
    /// Puts a layer on top of the one that handled the key.
    case push(any Screen)
    /// A line for the status bar.
    case message(String)
    /// Jumps the open book to `href` (a contents entry), noting the place left for going back.
    case jump(href: String, heading: String)
    /// Jumps the open book to a saved place (a bookmark), noting the place left.
    case jumpToLocator(Locator)
    /// Shows a match of the search in the open book, noting the place left.
    case showSearchHit(BookSearchHit)
    /// Deletes a bookmark from the library (the list shown already left it out).
    case deleteBookmark(Bookmark)
    /// Stores a bookmark's new name (the list shown already has it).
    case renameBookmark(Bookmark)
    /// Opens a book of the library at a place, carrying a library search into it.
    case openBook(path: String, entry: LibraryEntry, at: Locator?, searching: String?)
    /// Does what the reader's prompt asked for, with the text typed.
    case submit(PromptState.Kind, text: String)
    /// Opens note `index` of the page's note references (a note popup's `n` and `p`).
    case openNote([PageTarget], index: Int)
    /// Renews or returns the loan of a license popup (which shows it busy meanwhile).
    case loanAction(LibraryEntry, renew: Bool)
    /// Reads the bookshelf again, selecting `select` (the license popup closed).
    case reloadShelf(select: Int64?)
    /// Cancels the download in progress (its popup stays until the download stops).
    case cancelAcquisition
    /// What a popup of highlights and notes asks of the open book.
    case annotation(AnnotationRequest)
    /// Ends the program (Ctrl-C on a page).
    case quit
    /// What the bookshelf asks: remove, import, relink, find in the library's text…
    case shelf(ShelfState.Command)
    /// Lists every highlight and note of the library (`A` on the bookshelf).
    case showLibraryAnnotations
    /// Back to the bookshelf (leaving the Catalogs view).
    case showShelf
    /// Fetches a catalog's feed or search (the Catalogs view shows it when it comes).
    case loadCatalog(CatalogRequest)
    /// Gets a publication from a catalog, with the download's popup.
    case acquire(catalog: SavedCatalog, OPDSPublication, OPDSLink)
    /// What the reader's page asks of the open book (``ReaderScreen``).
    case reader(ReaderEffect)
    /// Stops the opening in progress and leaves (the bookshelf, or the end of `lectern open`).
    case cancelOpening
    /// Opens the publication again (a refused one, once something may have changed).
    case retryOpening(path: String, entry: LibraryEntry?)
    /// Leaves the page shown instead of a book (refused, or unreadable).
    case backFromBook
    /// The passphrase dialog's answer (nil: cancelled), for the opening waiting on it.
    case answerCredentials(CredentialsReply, String?)
}

/// What a popup of highlights and notes asks of the open book.
enum AnnotationRequest: Sendable {
    /// Store a changed colour or style.
    case store(Annotation)
    /// Delete it.
    case remove(Annotation)
    /// The note editor of `annotationID` closed: saved with a text, or cancelled.
    case noteClosed(annotationID: String, NoteEditorState.Outcome)
    /// Go there (the list closed).
    case jump(Annotation)
    /// Open its popup over the list.
    case open(Annotation)
}
