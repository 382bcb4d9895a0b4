import Bookshelf
import FoundationEssentials
import Shared
import TextLayout

/// The book's entry in the library and the book-wide text pass (lengths for percentages,
/// text for search), started once the first page is shown.
extension ReaderApp {
    /// Adds the publication to the library when it is not there yet (`lectern open`).
    func ensureEntry(_ book: BookController) {
        guard book.entry == nil, !book.entryRequested, let library = dependencies.library,
              let identity = book.identity else { return }
        book.entryRequested = true
        let opened = book.opened, path = book.path
        let publication = opened.publication
        let candidate = LibraryEntry(identity: identity, path: path, title: publication.metadata.title ?? LibraryImporter.fileName(path),
                                     author: publication.metadata.authors.map(\.name).joined(separator: ", "), format: opened.format,
                                     protection: ProtectionMark(scheme: publication.contentProtectionService?.scheme),
                                     licenseID: opened.licenseID)
        book.entryAdding = book.tasks.start(.libraryEntry) { [weak self, weak book] in
            let stored: Result<LibraryEntry, LibraryError>
            do throws(LibraryError) { stored = .success(try await library.add(candidate)) } catch { stored = .failure(error) }
            guard let self, let book, !Task.isCancelled else { return }
            switch stored {
            case .success(let entry):
                if book.entry == nil { book.entry = entry }
                self.savePosition(book)
                // A book new to the library had no entry at its first paint to read its
                // highlights by: read them now (another device's, from the sync folder).
                if book.firstPaintDone, !book.highlights.isLoaded { self.loadAnnotations(book) }
            case .failure(let error):
                // Without an entry neither positions nor bookmarks can be saved: say so.
                Self.log.warning("adding \(path) to the library failed: \(error.userMessage)")
                self.message = "This book could not be added to the library: \(error.userMessage); its place will not be kept"
                self.render()
            }
        }
    }

    /// The chapter lengths counted at an earlier opening of this content, when the library
    /// has them for every chapter (only a cache: nil when absent or unreadable); `partial`
    /// receives those of an earlier opening closed before its count finished.
    func cachedChapterLengths(_ book: BookController, identity: String, partial: ((_ counted: [Int: Int]) -> Void)? = nil) async -> [Int]? {
        guard let cached = try? await dependencies.library?.textLengths(identity: identity),
              cached.count == book.source.count else { return nil }
        guard cached.contains(where: { $0 < 0 }) else { return cached }
        var counted: [Int: Int] = [:]
        for (index, length) in cached.enumerated() where length >= 0 { counted[index] = length }
        partial?(counted)
        return nil
    }

    /// Keeps the length of `chapter` (whole on screen, or counted by the book pass) for the
    /// next opening while the book's count is not finished: stored with the others counted so
    /// far, -1 for those not yet counted, so that a book closed early still reopens a long
    /// chapter from its first part.
    func rememberLength(_ length: Int, ofChapter chapter: Int, _ book: BookController, write: Bool = true) {
        guard book.state.chapterLengths == nil, chapter >= 0, chapter < book.source.count,
              book.state.lengthsCountedSoFar[chapter] != length else { return }
        book.state.lengthsCountedSoFar[chapter] = length
        guard write, let library = dependencies.library, let identity = book.identity else { return }
        let known = book.state.lengthsCountedSoFar
        let all = (0..<book.source.count).map { known[$0] ?? -1 }
        // Only a cache: a failed write costs a whole conversion at the next opening.
        book.tasks.start(nil) { _ = try? await library.setTextLengths(all, identity: identity) }
    }

    /// Counts the text of every chapter in the background (or reads the count cached for
    /// this content), for book percentages; the status line shows "—" until then.
    func startBookPass(_ book: BookController, after readAhead: Task<Void, Never>?) {
        let library = dependencies.library
        let source = book.source, identity = book.identity
        // Decrypted text never reaches the disk: only unprotected books are cached.
        let cacheable = book.publication.contentProtectionService == nil
        let cacheFolder = dependencies.cacheFolder + "/text"
        book.tasks.start(.textIndex) { [weak self, weak book] in
            guard let book else { return }
            await readAhead?.value
            if book.state.chapterLengths == nil, let identity,
               let cached = await self?.cachedChapterLengths(book, identity: identity, partial: { counted in
                   book.state.lengthsCountedSoFar.merge(counted) { current, _ in current }
               }),
               !Task.isCancelled {
                book.state.chapterLengths = cached
                self?.render()
            }
            // Every chapter's text for search (and its length): from the cache file, else
            // converted and written to it chapter by chapter, so that the index holds offsets
            // in that file, not the book's text (a protected book's stays in memory).
            if cacheable, let identity,
               let stored = await Blocking.runInBackground({ BookTextCache.open(identity: identity, count: source.count, in: cacheFolder) }) {
                guard !Task.isCancelled else { return }
                for (index, chapter) in stored.enumerated() { book.textIndex.set(chapter, chapter: index) }
                self?.listSearchResultsAgain(book)
                let counted = stored.map(\.length)
                if book.state.chapterLengths != counted {
                    book.state.chapterLengths = counted
                    if let library { try? await library.setTextLengths(counted, identity: identity) }
                    self?.render()
                }
                return
            }
            let writer = cacheable ? identity.flatMap { identity in BookTextCache.Writer(identity: identity, in: cacheFolder) } : nil
            var written: [StoredChapterText] = []
            var lengths: [Int] = []
            // A chapter that cannot be read counts as empty for now, but nothing is kept for
            // the next opening, which tries again.
            var unreadable = false
            var lastKept = ContinuousClock.now
            for index in 0..<source.count {
                if Task.isCancelled { return }
                // A long chapter on screen, once whole, is not converted a second time: it would
                // be held twice at once. (Short ones are: the page shown for an audio track or an
                // unreadable chapter is not its text.)
                let shown = book.state.chapter == index && book.partialChapter == nil && book.loadingChapter == nil
                    && (book.document?.length ?? 0) > 100_000 ? book.document : nil
                let offset = written.last.map { $0.offset + $0.textBytes + $0.foldedBytes } ?? BookTextCache.magic.count
                let keepWriting = writer != nil && written.count == index
                let (entry, failed) = await Blocking.runInBackground { () -> (BookTextIndex.Chapter, Bool) in
                    let document = shown ?? source.load(index)
                    let text = document?.plainText ?? ""
                    if keepWriting, let stored = writer?.append(text: text, at: offset) { return (.stored(stored), document == nil) }
                    return (.inMemory(SearchableText(text)), document == nil)
                }
                unreadable = unreadable || failed
                switch entry {
                case .inMemory(let text): book.textIndex.set(text, chapter: index)
                case .stored(let stored):
                    book.textIndex.set(stored, chapter: index)
                    written.append(stored)
                }
                lengths.append(entry.length)
                if !failed {
                    // Kept every second or so, for a book closed before the count ends.
                    let now = ContinuousClock.now
                    let due = now - lastKept >= .seconds(1)
                    if due { lastKept = now }
                    self?.rememberLength(entry.length, ofChapter: index, book, write: due)
                }
            }
            guard !Task.isCancelled else { return }
            self?.listSearchResultsAgain(book)
            guard !unreadable else {
                book.state.chapterLengths = lengths
                self?.render()
                return
            }
            if let writer, written.count == source.count {
                let chapters = written
                book.tasks.start(nil) { await Blocking.runInBackground { writer.finish(chapters) } }
            }
            let counted = lengths
            if book.state.chapterLengths != counted {
                book.state.chapterLengths = counted
                // Only a cache: a failed write costs a recount at the next opening.
                if let identity, let library { try? await library.setTextLengths(counted, identity: identity) }
                self?.render()
            }
        }
    }
}
