import Bookshelf
import Shared
import TextLayout

extension ReaderApp {
    /// The effect interpreter: carries out what a layer asked, in order.
    func perform(_ effects: [ScreenEffect]) {
        for effect in effects {
            switch effect {
            case .pop, .passThrough:
                break
            case .push(let screen):
                overlays.append(screen)
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
            case .submit(let kind, let text):
                submit(kind, text: text)
            case .openNote(let notes, let index):
                if let book = currentBook { openNote(book, notes: notes, index: index) }
            case .loanAction(let entry, let renew):
                runLoanAction(entry, renew: renew)
            case .reloadShelf(let selected):
                reloadShelf(select: selected)
            case .cancelAcquisition:
                acquisitionCancel?.cancel()
            case .annotation(let request):
                if let book = currentBook { perform(request, book: book) }
            case .quit:
                quit()
            case .shelf(let command):
                perform(command)
            case .showLibraryAnnotations:
                showLibraryAnnotations()
            case .showShelf:
                showShelf()
            case .loadCatalog(let request):
                loadCatalog(request)
            case .acquire(let catalog, let publication, let link):
                acquire(from: catalog, publication, link)
            case .reader(let request):
                if let book = currentBook { perform(request, book: book) }
            case .cancelOpening:
                openTask?.cancel()
                backFromReader()
            case .retryOpening(let path, let entry):
                openPublication(path: path, entry: entry)
            case .backFromBook:
                backFromReader()
            case .answerCredentials(let reply, let text):
                credentialsCancelled = text == nil
                reply.answer(text)
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
}
