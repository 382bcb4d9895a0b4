import Terminal

/// The reader's one-line prompt (`/` search, `:` command, `%` percentage, the pages to print,
/// the file to print to): typed on the status line, which the page draws (with its cursor).
struct PromptScreen: Screen {
    var state: PromptState

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        switch state.field.handle(key) {
        case .submitted(let text): return [.pop, .submit(state.kind, text: text)]
        case .cancelled: return [.pop]
        case .edited, .ignored: return []
        }
    }

    /// Nothing over the page: the reader's status line shows the prompt.
    func draw(into painter: Painter) {}

    var placesCursor: Bool { true }
}
