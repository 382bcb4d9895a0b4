import Shared

/// A protected book's words written out by a command that is not `lectern text`: the sentences
/// and phrases `lectern listen` prints beside what it reads aloud, the highlighted quotes
/// `lectern annotations` lists. Reading aloud or listing is not copying, but writing the words
/// out is — as `lectern text` does, they go through the book's copy right, each consuming what
/// it prints. Past the allowance an entry keeps its place (href, offsets, clip, note) without
/// the words, and standard error says so once. An unprotected book's rights allow everything.
/// One rule for every command that prints a book's words.
struct PrintedWords {
    let rights: any UserRights
    /// What is left out, as standard error names it ("words", "quotes").
    private let noun: String
    private var withheld = false

    init(_ publication: Publication, noun: String = "words") {
        rights = publication.rights
        self.noun = noun
    }

    /// `text` when its printing is allowed (and consumed); nil when not. Its callers print
    /// line by line from synchronous code (a player's callback): the answer is waited for.
    mutating func printable(_ text: String) -> String? {
        let rights = rights
        return decided(text, granted: Blocking.wait({ await rights.copy(text: text) }).isGranted)
    }

    /// The same for an async caller (`lectern annotations`), which awaits the answer.
    mutating func printable(_ text: String) async -> String? {
        decided(text, granted: await rights.copy(text: text).isGranted)
    }

    private mutating func decided(_ text: String, granted: Bool) -> String? {
        if granted { return text }
        if !withheld {
            withheld = true
            Output.error("the \(noun) are left out from here: printing a protected book's text is copying, and its rights allow no more")
        }
        return nil
    }
}
