import Terminal

/// A download from a `.lcpl` in progress, with its progress bar: Esc, `q` or Ctrl-C cancel
/// it; the popup stays until the download has stopped (the application takes it off).
struct AcquisitionScreen: Screen {
    var state: AcquisitionState

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        guard key == .escape || key == .character("q") || key == .control("c") else { return [] }
        state.cancelling = true
        return [.cancelAcquisition]
    }

    func draw(into painter: Painter) {
        PopupViews.drawAcquisition(state, painter: painter)
    }
}
