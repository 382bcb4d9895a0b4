import Annotations
@testable import ReaderUI
import Terminal
import Testing

/// The popups of highlights as values (#31): the note editor's keys and wrapping, the
/// highlight popup's colour, style and two-key delete, the list's filter.
@Suite struct AnnotationPopupStateTests {
    @Test func theEditorEditsSeveralLinesAndSavesTrimmed() {
        var editor = NoteEditorState(annotationID: "a", note: nil)
        for character in "one" { _ = editor.handle(.character(character)) }
        _ = editor.handle(.enter)
        for character in "two" { _ = editor.handle(.character(character)) }
        // Up to the first line's end, a letter there; Home then Delete removes the first letter.
        _ = editor.handle(.up)
        _ = editor.handle(.character("!"))
        _ = editor.handle(.home)
        _ = editor.handle(.delete)
        // An escape character typed (a paste) never enters the note.
        _ = editor.handle(.character("\u{1B}"))
        #expect(editor.string == "ne!\ntwo")
        _ = editor.handle(.down)
        _ = editor.handle(.end)
        _ = editor.handle(.enter)
        _ = editor.handle(.enter)
        #expect(editor.handle(.control("s")) == .save("ne!\ntwo"))
        #expect(editor.handle(.escape) == .cancel)
    }

    @Test func wrappingPlacesTheCursor() {
        var editor = NoteEditorState(annotationID: "a", note: "abcdefgh\nij")
        let wrapped = editor.wrapped(width: 5)
        // Rows of 4 cells (one is kept for the cursor): "abcd", "efgh", "ij".
        #expect(wrapped.rows.map(\.text) == ["abcd", "efgh", "ij"])
        #expect(wrapped.cursorRow == 2 && wrapped.cursorColumn == 2)
        _ = editor.handle(.up)
        let up = editor.wrapped(width: 5)
        #expect(up.cursorRow == 0 && up.cursorColumn == 2)
    }

    @Test func theHighlightPopupChangesAndDeletesOnlyAfterYes() {
        let annotation = Annotation(target: AnnotationTarget(href: "c.xhtml", textRange: 0..<3))
        var popup = AnnotationDetailState(annotation: annotation)
        guard case .changed(let purple) = popup.handle(.character("6")) else { Issue.record("6 is purple"); return }
        #expect(purple.color == .purple)
        guard case .changed(let underlined) = popup.handle(.character("s")) else { Issue.record("s is the style"); return }
        #expect(underlined.style == .underline)
        #expect(popup.handle(.character("d")) == .stay)
        #expect(popup.handle(.character("x")) == .stay, "any key but y keeps it")
        #expect(popup.handle(.character("d")) == .stay)
        guard case .delete(let deleted) = popup.handle(.character("y")) else { Issue.record("d y deletes"); return }
        #expect(deleted.id == annotation.id)
    }

    @Test func theListFiltersOnChapterQuoteAndNote() {
        let first = Annotation(target: AnnotationTarget(href: "a.xhtml", textRange: 0..<3, quote: TextQuote(exact: "April"),
                                                        headings: ["The Burial"]), note: "lilacs")
        let second = Annotation(target: AnnotationTarget(href: "b.xhtml", textRange: 0..<3, quote: TextQuote(exact: "throne"),
                                                         headings: ["A Game of Chess"]))
        var list = AnnotationListState(annotations: [second, first], order: { ($0.target.href == "a.xhtml" ? 0 : 1, 0) },
                                       chapterTitle: { _ in "" })
        #expect(list.rows.map(\.quote) == ["“April”", "“throne”"], "in reading order")
        for character in "LILAC" { _ = list.handle(.character(character)) }
        #expect(list.shown.count == 1 && list.selected?.annotation.id == first.id)
        for _ in 0..<5 { _ = list.handle(.backspace) }
        for character in "chess" { _ = list.handle(.character(character)) }
        #expect(list.handle(.enter) == .jump(second))
    }
}
