import Shared

/// The keys the bookshelf sorts by (stored beside each publication, so listing never computes them).
extension LibraryStore {
    /// The key an author sorts by when the publication gives none: family name first, as a
    /// library shelves ("Herman Melville" sorts as "melville herman"); a name already written
    /// family name first ("Natsume, Sōseki") and a single word stay as they are. Of several
    /// authors, the first decides.
    public static func authorSortKey(_ author: String) -> String {
        let first = author.split(separator: ";").first.map(String.init) ?? author
        let name = first.trimmed
        // "Family, Given" is already in order; so are names with no space.
        if name.contains(",") || !name.contains(" ") { return name.lowercased() }
        var words = name.split(separator: " ").map(String.init)
        // Particles and suffixes stay with the family name: "Ursula K. Le Guin", "Martin Luther King Jr.".
        let suffixes: Set<String> = ["jr", "jr.", "sr", "sr.", "ii", "iii", "iv"]
        var suffix: [String] = []
        while words.count > 2, let last = words.last, suffixes.contains(last.lowercased()) { suffix.insert(words.removeLast(), at: 0) }
        var family = [words.removeLast()]
        let particles: Set<String> = ["le", "la", "de", "du", "des", "van", "von", "der", "den", "da", "di", "del", "ten", "ter"]
        while words.count > 1, let last = words.last, particles.contains(last.lowercased()) { family.insert(words.removeLast(), at: 0) }
        return (family + words + suffix).joined(separator: " ").lowercased()
    }

    /// The key titles and authors sort by: lowercased, without a leading article.
    public static func sortKey(_ text: String) -> String {
        var key = text.lowercased()
        for article in ["the ", "a ", "an "] where key.hasPrefix(article) {
            key.removeFirst(article.count)
            break
        }
        return key
    }
}
