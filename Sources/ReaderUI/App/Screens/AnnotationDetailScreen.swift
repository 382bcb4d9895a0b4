import Terminal

/// A highlight opened (`H` on it, its hint label, or just made): a digit changes its colour,
/// `s` its style, `n` or Enter opens its note, `d` then `y` deletes it.
struct AnnotationDetailScreen: Screen {
    var state: AnnotationDetailState

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        switch state.handle(key) {
        case .close: return [.pop]
        case .stay: return []
        case .changed(let annotation): return [.annotation(.store(annotation))]
        case .editNote(let annotation):
            return [.pop, .push(NoteEditorScreen(state: NoteEditorState(annotationID: annotation.id, note: annotation.note)))]
        case .delete(let annotation): return [.pop, .annotation(.remove(annotation))]
        }
    }

    func draw(into painter: Painter) {
        AnnotationViews.drawDetail(state, painter: painter)
    }
}
