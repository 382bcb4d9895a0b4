import Terminal

/// The note editor of a highlight or of a page note: Ctrl-S saves, Esc leaves the note as it
/// was; the application stores the outcome.
struct NoteEditorScreen: Screen {
    var state: NoteEditorState

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        switch state.handle(key) {
        case .editing: return []
        case let outcome: return [.pop, .annotation(.noteClosed(annotationID: state.annotationID, outcome))]
        }
    }

    func draw(into painter: Painter) {
        AnnotationViews.drawEditor(state, painter: painter)
    }
}
