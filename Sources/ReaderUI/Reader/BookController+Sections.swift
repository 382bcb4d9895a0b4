import Shared
import TextLayout

/// Places named by contents entries (#29 item 7): a search match is labelled with the section
/// it is in, not with the first entry of its file, and a PDF's place is a page.
extension BookController {
    /// Records where the anchors of the contents entries of `chapter` lie in its whole
    /// `document`.
    func noteEntryOffsets(chapter: Int, document: TextDocument) {
        guard !sections.isEmpty else { return }
        entryOffsets[chapter] = Self.entryOffsets(of: sections, chapter: chapter, document: document)
    }

    /// The offsets of the fragments of `chapter`'s contents entries in `document`.
    nonisolated static func entryOffsets(of sections: ContentsSections, chapter: Int, document: TextDocument) -> [String: Int] {
        var offsets: [String: Int] = [:]
        for entry in sections.entriesByChapter[chapter] ?? [] {
            if let fragment = sections.index.entries[entry].fragment, let offset = document.offset(ofFragment: fragment) {
                offsets[fragment] = offset
            }
        }
        return offsets
    }

    /// Whether labelling a place of `chapter` by its section needs the chapter converted:
    /// entries with fragments point into it and their offsets are not known yet.
    func needsEntryOffsets(_ chapter: Int) -> Bool {
        guard !source.isPaged, entryOffsets[chapter] == nil, let entries = sections.entriesByChapter[chapter] else { return false }
        if chapter == state.chapter, partialChapter == nil, loadingChapter == nil, let document {
            noteEntryOffsets(chapter: chapter, document: document)
            return false
        }
        return entries.contains { tocEntries[$0].fragment != nil }
    }

    /// Converts, off the main actor, the chapters among `chapters` whose entries' offsets are
    /// needed (``needsEntryOffsets(_:)``), and records them.
    func loadEntryOffsets(_ chapters: some Sequence<Int>) async {
        let source = source, sections = sections
        for chapter in Set(chapters).sorted() where needsEntryOffsets(chapter) {
            if Task.isCancelled { return }
            let offsets = await Blocking.runInBackground { () -> [String: Int]? in
                source.load(chapter).map { Self.entryOffsets(of: sections, chapter: chapter, document: $0) }
            }
            entryOffsets[chapter] = offsets ?? [:]
        }
    }

    /// The title of the contents entry that `offset` of `chapter` is in (its deepest entry whose
    /// anchor precedes it); nil when no titled entry points into the chapter.
    func sectionTitle(chapter: Int, offset: Int) -> String? {
        let known = entryOffsets[chapter]
        let entry = sections.entry(inChapter: chapter, at: offset) { $0.fragment.flatMap { known?[$0] } }
        return entry.map { tocEntries[$0].title }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// How a place of the book is named in a search's message and results: its section's
    /// title, else its chapter's number (`ch. 3`); a PDF's page by its label (`p. iv`), after
    /// the outline entry it is in.
    func placeLabel(chapter: Int, offset: Int) -> String {
        let title = sectionTitle(chapter: chapter, offset: offset)
        if let page = source.pageLabel(chapter) {
            return title.map { "\($0), p. \(page)" } ?? "p. \(page)"
        }
        return title ?? "ch. \(chapter + 1)"
    }
}
