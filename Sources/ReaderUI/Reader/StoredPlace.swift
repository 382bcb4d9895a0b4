import Shared

/// What of a place in a book may be written to the library: the reading position and the
/// bookmarks are on disk, in clear, and the words of a protected publication's page (LCP, a
/// ZIP password, a PDF password) are decrypted content, which never reaches the disk in clear.
///
/// An unprotected book's locator keeps the text around the place (`text.highlight`,
/// `text.before`): it finds the place again after the layout or the file changes. A protected
/// book's keeps what locates it without its words: the resource, the progression through it
/// (through the whole chapter), the book's progression and the nearest anchor. (Only while a
/// long chapter is shown from its first part before its length was ever counted has it no
/// progression: then the nearest anchor, or the chapter's start, is what comes back.)
enum StoredPlace {
    /// `locator` as written to the library: for a protected publication, without its text.
    static func locator(_ locator: Locator, protected: Bool) -> Locator {
        guard protected else { return locator }
        var stored = locator
        stored.text = Locator.Text()
        return stored
    }
}
