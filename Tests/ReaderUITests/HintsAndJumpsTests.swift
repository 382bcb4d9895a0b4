import Shared
@testable import ReaderSettings
@testable import ReaderUI
import Terminal
import Testing
import TextLayout

@Suite struct HintsAndJumpsTests {
    static func target(_ index: Int) -> PageTarget {
        PageTarget(linkIndex: index, target: LinkTarget(href: "c\(index).xhtml", isExternal: false, isNoteReference: false),
                   isNote: false, line: index, column: 0)
    }

    /// Up to 26 targets take one letter each; more take two letters each, so that no label
    /// is the start of another.
    @Test func labelsAreNeverPrefixesOfOthers() {
        #expect(HintMode.labels(count: 3) == ["a", "s", "d"])
        let many = HintMode.labels(count: 40)
        #expect(many.count == 40 && Set(many).count == 40 && many.allSatisfy { $0.count == 2 })
        #expect(HintMode.labels(count: 26).allSatisfy { $0.count == 1 })
    }

    @Test func typingALabelChoosesItsTarget() {
        var hints = HintMode(targets: (0..<30).map(Self.target))
        #expect(hints.type("s") == .pending)
        #expect(hints.shown.count == 4)
        #expect(hints.type("a") == .chosen(Self.target(26)))
        var few = HintMode(targets: (0..<3).map(Self.target))
        #expect(few.type("D") == .chosen(Self.target(2)))
        #expect(few.type("z") == .noMatch)
    }

    static func place(_ progression: Double) -> JumpList.Place {
        JumpList.Place(locator: Locator(href: "c.xhtml", mediaType: .xhtml, locations: .init(progression: progression)), title: "C")
    }

    @Test func theJumpListGoesBackAndForwardAndForgetsWhatWasAheadOnANewJump() {
        var jumps = JumpList()
        #expect(jumps.goBack(from: Self.place(0)) == nil)
        jumps.record(Self.place(0.1))
        jumps.record(Self.place(0.2))
        jumps.record(Self.place(0.2))
        #expect(jumps.back.count == 2)
        #expect(jumps.goBack(from: Self.place(0.3)) == Self.place(0.2))
        #expect(jumps.goBack(from: Self.place(0.2)) == Self.place(0.1))
        #expect(jumps.goForward(from: Self.place(0.1)) == Self.place(0.2))
        #expect(jumps.forward == [Self.place(0.3)])
        jumps.record(Self.place(0.5))
        #expect(jumps.forward.isEmpty)
        #expect(jumps.goForward(from: Self.place(0.6)) == nil)
    }

    @Test func theDefaultKeysOfLinksJumpsAndCursor() {
        let map = KeyMap()
        #expect(map.action(for: .character("f")) == .hints)
        #expect(map.action(for: .enter) == .followNote)
        #expect(map.action(for: .control("o")) == .jumpBack)
        #expect(map.action(for: .backspace) == .jumpBack)
        #expect(map.action(for: .tab) == .jumpForward)
        #expect(map.action(for: .character("t")) == .tableOfContents)
        #expect(map.action(for: .character("c")) == .placeCursor)
    }

    /// The help lists the new keys and the keys of hint mode, the note popup and the selection.
    @Test func theHelpListsLinksNotesJumpsAndSelectionKeys() {
        let lines = HelpState(keyMap: KeyMap()).lines
        for wanted in ["C-o backspace", "label the links and notes", "next and previous note of the page",
                       "move the other end instead", "copies what fits", "place a cursor"] {
            #expect(lines.contains { $0.contains(wanted) }, "help lacks \(wanted)")
        }
    }
}
