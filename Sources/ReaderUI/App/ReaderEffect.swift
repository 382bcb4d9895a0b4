import Shared
import TextLayout

/// What the reader's page asks of the application after a key (``ReaderScreen``), carried out
/// with the open book by ``ReaderApp/perform(_:book:)``: one case per reader action that needs
/// more than the book's own state (the library, the window, tasks, other layers).
enum ReaderEffect {
    /// Closes the book (`q`, Ctrl-C): back to the bookshelf, or the end of `lectern open`.
    case back
    /// A movement of the page (``ReaderState/perform(_:count:)``), noting the place left first
    /// when it is a jump (the start or the end of the book).
    case move(ReaderAction, count: Int?, recordsJump: Bool)
    /// Goes to a percentage of the book, noting the place left.
    case goToPercent(Double)
    /// Goes to a place without noting the place left (a synced place accepted).
    case goTo(Locator)
    /// The next or previous match of the search.
    case searchStep(forward: Bool)
    /// Lists every match of the search.
    case searchResults
    case addBookmark
    case bookmarks
    /// Highlights the selection, or highlight `number` of the page.
    case highlight(number: Int)
    /// Highlights `range` of the chapter (a selection), then writes its note when asked.
    case highlightRange(Range<Int>, thenNote: Bool)
    case annotations
    /// Labels the page's links and notes (hint mode).
    case startHints
    /// Follows a labelled link or note of hint mode.
    case follow(PageTarget, among: [PageTarget])
    /// Opens an external link the person agreed to open.
    case openExternally(String)
    /// Opens note reference `number` of the page.
    case followNote(number: Int)
    /// Back or forward through the jump list.
    case stepJump(forward: Bool)
    case nextTheme
    /// Narrower, wider, justification, indent, margin, spacing.
    case layoutSetting(ReaderAction)
    /// Looks up the selection or the word under the cursor.
    case lookUp
    /// Starts a selection (`cursor`: a cursor to move before anchoring).
    case select(cursor: Bool)
    /// Copies text of the selection, if the rights allow it.
    case copy(String)
    case print
    case openInBrowser
    /// An audiobook's playback key.
    case audio(ReaderAction)
    /// The next or previous chapter (or page of a paged book).
    case stepSection(forward: Bool, count: Int?)
    /// Shows the page's picture alone (`i`).
    case openImage
    case redraw
    /// A key that means something else while a book's pages are pictures.
    case pictures(ReaderAction, count: Int?)
    /// A read-aloud key (`r` and the keys while reading aloud).
    case readAloud(ReadAloudKey)
    /// Reads aloud from the selection's start.
    case readAloudFromSelection
}

/// The keys of read-aloud, as the reader's page hands them on.
enum ReadAloudKey {
    /// Starts reading aloud, or pauses and resumes.
    case toggle
    case faster, slower
    /// The next (1) or previous (-1) phrase or sentence.
    case step(Int)
    case paragraph(forward: Bool)
    /// Leaves the table, list or figure a narration reads.
    case leaveStructure
    case stop
}
