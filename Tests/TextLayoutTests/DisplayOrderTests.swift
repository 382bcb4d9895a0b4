import Testing
import TextLayout

/// Interface strings in visual order (#29 item 10): the page text's bidi algorithm, mirroring
/// and shaping, for titles and labels drawn by the views.
@Suite struct DisplayOrderTests {
    @Test func aHebrewTitleIsReversedAndLatinIsLeftAlone() {
        #expect(DisplayOrder.visual("שלום עולם") == "םלוע םולש")
        #expect(DisplayOrder.visual("Moby-Dick; or, The Whale") == "Moby-Dick; or, The Whale")
        // Numbers keep their order inside right-to-left text; the paragraph is right to left.
        #expect(DisplayOrder.visual("פרק 12") == "12 קרפ")
        // A left-to-right label with a Hebrew part: only that part is reversed, in place.
        #expect(DisplayOrder.visual("Chapter 1: שלום עולם") == "Chapter 1: םלוע םולש")
    }

    @Test func bracketsAreMirroredAndArabicIsShaped() {
        #expect(DisplayOrder.visual("(שלום)") == "(םולש)")
        // لا: lam-alef, one ligature (U+FEFB, isolated), the lam's own cell dropped.
        #expect(DisplayOrder.visual("لا") == "\u{FEFB}")
        // باب: beh isolated (alef does not join on), alef final, beh initial — in visual order, right to left.
        #expect(DisplayOrder.visual("باب") == "\u{FE8F}\u{FE8E}\u{FE91}")
    }

    @Test func aTerminalThatReordersGetsTheLogicalOrder() {
        #expect(DisplayOrder.visual("שלום עולם", mode: .terminal) == "שלום עולם")
    }

    /// A line the interface composed around a Hebrew word (a popup's title, a prompt) stays
    /// left to right: only the word, isolated, is turned; the isolates are not sent.
    @Test func anInterfaceLineIsLeftToRightWhateverItsFirstLetter() {
        let title = "“" + DisplayOrder.isolated("בשייט") + "” — 1 match"
        #expect(DisplayOrder.visual(title, interfaceLine: true) == "“טיישב” — 1 match")
        // What an interface line quotes is isolated too: its figures stay after it.
        #expect(DisplayOrder.visual("“בשייט” — 1 match", interfaceLine: true) == "“טיישב” — 1 match")
        #expect(DisplayOrder.visual("Removed \"שלום\" 3 times, \"עולם\" 2", interfaceLine: true) == "Removed \"םולש\" 3 times, \"םלוע\" 2")
        // As a paragraph of its own (a title), the number joins the right-to-left run, as the algorithm says.
        #expect(DisplayOrder.visual("“בשייט” — 1 match") != "“טיישב” — 1 match")
        // A terminal that reorders gets the logical order, without the isolates too.
        #expect(DisplayOrder.visual(title, mode: .terminal, interfaceLine: true) == "“בשייט” — 1 match")
    }

    /// Each character in visual order keeps the offset of its logical character: a list row
    /// styles a search match in its reordered snippet by it.
    @Test func eachVisualCharacterNamesItsLogicalOffset() {
        let characters = DisplayOrder.characters("אב cd")
        #expect(String(characters.map(\.character)) == "cd בא")
        #expect(characters.map(\.source) == [3, 4, 2, 1, 0])
        #expect(DisplayOrder.characters("ab").map(\.source) == [0, 1])
    }
}
