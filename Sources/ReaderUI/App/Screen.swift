import Bookshelf
import Shared
import Terminal
import TextLayout

/// One layer of the interface on the focus stack (``ReaderApp/overlays``, #30): the top layer
/// takes the keys, turning each into effects that the application carries out
/// (``ReaderApp/perform(_:)``), and every layer draws itself over what is below.
///
/// Drawing changes nothing: a layer whose drawing depends on the window (a list's visible
/// rows) works that out on a copy when drawing, and again in `handle` from the size given.
@MainActor
protocol Screen {
    /// Handles `key` in a window of `size`; returns what the application is to do. A layer
    /// that does not return ``ScreenEffect/pop`` stays on the stack with its new state.
    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect]
    /// Draws the layer over what is below it.
    func draw(into painter: Painter)
    /// Where the cursor shows while the layer is on top; nil hides it.
    var cursor: (row: Int, column: Int)? { get }
}

extension Screen {
    var cursor: (row: Int, column: Int)? { nil }
}

/// What a layer asks of the application after a key, carried out in order.
@MainActor
enum ScreenEffect {
    /// Closes the layer that handled the key: exactly one layer.
    case pop
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
}

extension ReaderApp {
    /// The effect interpreter: carries out what a layer asked, in order.
    func perform(_ effects: [ScreenEffect]) {
        for effect in effects {
            switch effect {
            case .pop:
                break
            case .push(let screen):
                overlays.append(.screen(screen))
            case .message(let text):
                message = text
            case .jump(let href, let heading):
                if let book = currentBook {
                    recordJump(book)
                    jump(book, to: href, heading: heading)
                }
            case .jumpToLocator(let locator):
                if let book = currentBook {
                    recordJump(book)
                    jump(book, to: locator)
                }
            case .showSearchHit(let hit):
                if let book = currentBook { show(hit, in: book) }
            case .deleteBookmark(let bookmark):
                if let book = currentBook { deleteBookmark(bookmark, book: book) }
            case .renameBookmark(let bookmark):
                if let book = currentBook { renameBookmark(bookmark, book: book) }
            case .openBook(let path, let entry, let locator, let searching):
                openPublication(path: path, entry: entry, at: locator)
                if let searching { carrySearch(searching, into: path) }
            }
        }
    }

    /// Shows a match of the search (from the list of every match), noting the place left.
    func show(_ hit: BookSearchHit, in book: BookController) {
        book.search?.current = (hit.chapter, hit.range)
        recordJump(book)
        if hit.chapter == book.state.chapter {
            book.reveal(offset: hit.range.lowerBound)
            savePosition(book)
        } else {
            load(book, chapter: hit.chapter, anchor: .offset(hit.range.lowerBound))
        }
    }

    /// Gives `key` to the layer on top (taken off the stack meanwhile), puts it back unless it
    /// closed, then carries out its effects.
    func handle(_ key: Key, screen layer: any Screen) {
        var layer = layer
        let effects = layer.handle(key, size: screen.size)
        let closes = effects.contains { if case .pop = $0 { true } else { false } }
        if !closes { overlays.append(.screen(layer)) }
        perform(effects)
    }
}
