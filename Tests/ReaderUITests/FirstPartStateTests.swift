import Shared
import Testing
@testable import ReaderUI
import TextLayout

/// The reader's state while a long chapter is shown from its first part: places are through
/// the whole chapter, and a movement the part cannot place waits for the whole.
struct FirstPartStateTests {
    static let paragraphs = (1...200).map { "<p>Paragraph \($0) with a few words to wrap at this width.</p>" }

    static func layout(paragraphs count: Int) throws -> LaidOutDocument {
        try ReaderUIStateTests.layout(paragraphs.prefix(count).joined(), width: 30)
    }

    static func partState(wholeLength: Int?) throws -> ReaderState {
        var state = ReaderState(chapterCount: 1, rows: 10)
        state.show(chapter: 0, layout: try layout(paragraphs: 50), anchor: .start, part: .firstPart(wholeLength: wholeLength))
        return state
    }

    @Test func percentagesAndLocatorsAreThroughTheWholeChapter() throws {
        let whole = try Self.layout(paragraphs: 200)
        var state = try Self.partState(wholeLength: whole.document.length)
        state.chapterLengths = [whole.document.length]
        #expect(state.go(toPercent: 10) == .none)
        let expected = Double(state.topOffset) / Double(whole.document.length)
        #expect(state.topOffset > 0 && abs(state.chapterProgression - expected) < 1e-9)
        #expect(abs(state.chapterProgression - 0.1) < 0.02)
        #expect(state.currentLocator?.locations.progression == state.chapterProgression)
        #expect(state.bookProgression.map { abs($0 - expected) < 1e-9 } == true)
    }

    @Test func aPlacePastThePartWaitsForTheWhole() throws {
        let whole = try Self.layout(paragraphs: 200)
        var state = try Self.partState(wholeLength: whole.document.length)
        state.chapterLengths = [whole.document.length]
        #expect(state.go(toPercent: 50) == .awaitWhole(.progression(0.5)))
        #expect(state.perform(.end) == .awaitWhole(.end))
        #expect(state.top == 0)
        // Once whole, the same movements are carried out at once.
        state.extend(to: whole)
        #expect(state.go(toPercent: 50) == .none && abs(state.chapterProgression - 0.5) < 0.02)
        #expect(state.perform(.end) == .none && state.visibleLines.contains(whole.lineCount - 1))
    }

    /// The last page of a first part is not the book's end (a one-chapter book): a page or a
    /// line down past it waits for the rest, from the page shown (#28).
    @Test func movingPastThePartsEndWaitsForTheRest() throws {
        var state = try Self.partState(wholeLength: nil)
        let lines = try #require(state.layout?.lineCount)
        var effect = state.perform(.pageDown)
        while effect == .none { effect = state.perform(.pageDown) }
        #expect(effect == .awaitRest(.pageDown, count: 1))
        let last = state.top
        #expect(last == ((lines - 1) / 10) * 10)
        #expect(state.perform(.pageDown, count: 3) == .awaitRest(.pageDown, count: 3))
        #expect(state.perform(.lineDown) == .awaitRest(.lineDown, count: 1) && state.top == last)
        // Once whole, the movement is carried out from the same page.
        state.extend(to: try Self.layout(paragraphs: 200))
        #expect(state.perform(.pageDown) == .none && state.top == last + 10)
    }

    @Test func withoutTheWholesLengthPlacesAreLeftToTheText() throws {
        var state = try Self.partState(wholeLength: nil)
        #expect(state.go(toPercent: 10) == .awaitWhole(.progression(0.1)))
        _ = state.perform(.pageDown)
        #expect(state.top > 0 && state.chapterProgression == 0)
        let locator = try #require(state.currentLocator)
        #expect(locator.locations.progression == nil && locator.text.highlight != nil)
        // The text around the place finds it in the whole.
        let whole = try Self.layout(paragraphs: 200)
        #expect(whole.lineIndex(for: locator) == state.top)
    }

    @Test func theStatusLinesPageCountIsEstimatedDuringThePart() throws {
        let whole = try Self.layout(paragraphs: 200)
        var wholeState = ReaderState(chapterCount: 1, rows: 10)
        wholeState.show(chapter: 0, layout: whole, anchor: .start)
        let counted = wholeState.pageInChapter.count
        #expect(wholeState.chapterPagesLabel == "\(counted)")
        #expect(try Self.partState(wholeLength: nil).chapterPagesLabel == "…")
        let estimate = try #require(Int(try Self.partState(wholeLength: whole.document.length).chapterPagesLabel.dropFirst()))
        #expect(abs(estimate - counted) <= counted / 20, "\(estimate) for \(counted)")
    }

    /// A place is known before its chapter is converted only from an offset, or from a
    /// progression through a chapter whose length is counted.
    @Test func aPlaceIsEstimatedOnlyFromWhatIsKnownBeforeConverting() {
        var state = ReaderState(chapterCount: 2)
        let saved = Locator(href: "c.xhtml", mediaType: .xhtml, locations: Locator.Locations(progression: 0.25))
        #expect(state.estimatedOffset(of: .start, inChapter: 1) == 0)
        #expect(state.estimatedOffset(of: .offset(1_234), inChapter: 1) == 1_234)
        #expect(state.estimatedOffset(of: .locator(saved), inChapter: 1) == nil)
        #expect(state.estimatedOffset(of: .end, inChapter: 1) == nil)
        state.chapterLengths = [100, 40_000]
        #expect(state.estimatedOffset(of: .locator(saved), inChapter: 1) == 10_000)
        #expect(state.estimatedOffset(of: .progression(2), inChapter: 1) == 40_000)
        #expect(state.estimatedOffset(of: .fragment("note"), inChapter: 1) == nil)
        #expect(state.estimatedOffset(of: .locator(Locator(href: "c.xhtml", mediaType: .xhtml)), inChapter: 1) == nil)
    }

    @Test func theWholeKeepsThePageOfThePart() throws {
        var state = try Self.partState(wholeLength: nil)
        for _ in 0..<7 { _ = state.perform(.pageDown) }
        let top = state.top, offset = state.topOffset
        #expect(top > 0)
        state.extend(to: try Self.layout(paragraphs: 200))
        #expect(state.top == top && state.topOffset == offset && state.laidOutPart == .whole)
    }
}
