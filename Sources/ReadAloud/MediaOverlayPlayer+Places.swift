import Shared
import Streamer

/// Where the player is, as a place to save (the phrase), and the moves that need the
/// structure of the overlay: leaving a table or a list (escapability).
extension MediaOverlayPlayer {
    /// The phrase being read as a Locator: its content document, the element's id as a
    /// fragment, the progression on the book's clock. What a reader saves: reopened, the
    /// phrase is found again by its text element, whatever the audio durations.
    public var locator: Locator? {
        guard let entry = currentEntry else { return nil }
        var locations = Locator.Locations(fragments: entry.phrase.fragment.map { [$0] } ?? [])
        if timeline.duration > 0 { locations.totalProgression = min(max(bookTime / timeline.duration, 0), 1) }
        return Locator(href: entry.phrase.textHref, mediaType: .xhtml, locations: locations)
    }

    /// Goes to the first phrase reading `locator`'s element (its first fragment), else the first
    /// of its document; false when the overlays read nothing there.
    @discardableResult
    public func go(to locator: Locator) -> Bool {
        let href = Href.removingFragment(locator.href)
        let fragment = locator.locations.fragments.first ?? Href.fragment(of: locator.href)
        guard let index = fragment.flatMap({ timeline.index(ofText: href + "#" + $0) }) ?? timeline.index(ofText: href) else {
            return false
        }
        go(toPhrase: index)
        return true
    }

    /// Leaves the escapable structure (table, list, figure…) the phrase is in: on to the first
    /// phrase after it. False when the phrase is in none.
    @discardableResult
    public func escape() -> Bool {
        guard let index = phraseIndex, let entry = currentEntry,
              let depth = entry.phrase.types.firstIndex(where: { MediaOverlayStructures.escapable.contains($0) }) else { return false }
        let structure = entry.phrase.types[...depth]
        let entries = timeline.entries
        let next = entries[(index + 1)...].firstIndex { !$0.phrase.types.starts(with: structure) }
        guard let next else { return false }
        go(toPhrase: next)
        return true
    }
}
