import Shared

/// The book's words `lectern listen` prints beside what it reads aloud (a sentence, a phrase).
/// Reading aloud is not copying, but writing the words out is — as `lectern text` does, a
/// protected book's words go through its copy right, each line consuming what it prints. Past
/// the allowance a line keeps its place (href, offsets, clip) without the words, and standard
/// error says so once. An unprotected book's rights allow everything.
struct ListenedText {
    let rights: any UserRights
    private var withheld = false

    init(_ publication: Publication) {
        rights = publication.rights
    }

    /// `text` when its printing is allowed (and consumed); nil when not.
    mutating func printable(_ text: String) -> String? {
        let rights = rights
        if Blocking.wait({ await rights.copy(text: text) }).isGranted { return text }
        if !withheld {
            withheld = true
            Output.error("the words are left out from here: printing a protected book's text is copying, and its rights allow no more")
        }
        return nil
    }
}
