import Terminal

/// One layer of the interface on the focus stack (``ReaderApp/overlays``, #30): the top layer
/// takes the keys, turning each into effects that the application carries out
/// (``ReaderApp/perform(_:)``), and every layer draws itself over what is below.
///
/// Drawing changes nothing: a layer whose drawing depends on the window (a list's visible
/// rows) works that out on a copy when drawing, and again in `handle` from the size given.
@MainActor
protocol Screen {
    /// Handles `key` in a window of `size`; returns what the application is to do. A layer
    /// that does not return ``ScreenEffect/pop`` stays on the stack with its new state.
    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect]
    /// Draws the layer over what is below it.
    func draw(into painter: Painter)
    /// Where the cursor shows while the layer is on top; nil hides it.
    var cursor: (row: Int, column: Int)? { get }
    /// Whether drawing the layer (or the page under it, for the reader's prompt) places the
    /// cursor itself, where text is typed: then it stays where drawing put it.
    var placesCursor: Bool { get }
    /// Whether the layer hides the page (a popup) or shows it as it is (a mode over the page,
    /// such as reading aloud, that answers a few keys and lets the others through).
    var coversPage: Bool { get }
}

extension Screen {
    var cursor: (row: Int, column: Int)? { nil }
    var placesCursor: Bool { false }
    var coversPage: Bool { true }
}

extension ReaderApp {
    /// Gives `key` to the layer on top (taken off the stack meanwhile), puts it back unless it
    /// closed, then carries out its effects; false when the layer let the key through to the
    /// page (``ScreenEffect/passThrough``).
    @discardableResult
    func handle(_ key: Key, screen layer: any Screen) -> Bool {
        var layer = layer
        let effects = layer.handle(key, size: screen.size)
        let closes = effects.contains { if case .pop = $0 { true } else { false } }
        if !closes { overlays.append(layer) }
        perform(effects)
        return !effects.contains { if case .passThrough = $0 { true } else { false } }
    }

    /// Whether a layer hides the page (pictures are taken off it, the status line is the layer's).
    var pageIsCovered: Bool { overlays.contains { $0.coversPage } }

    /// The topmost layer of type `S` on the stack, if any.
    func topmost<S: Screen>(_ type: S.Type, where matches: (S) -> Bool = { _ in true }) -> (index: Int, screen: S)? {
        for (index, layer) in overlays.enumerated().reversed() {
            if let found = layer as? S, matches(found) { return (index, found) }
        }
        return nil
    }

    /// Changes the topmost layer of type `S` (a download's progress, a license read), then
    /// draws; nothing when it is closed.
    func update<S: Screen>(_ type: S.Type, where matches: (S) -> Bool = { _ in true }, _ change: (inout S) -> Void) {
        guard let (index, found) = topmost(type, where: matches) else { return }
        var layer = found
        change(&layer)
        overlays[index] = layer
        render()
    }

    /// Takes every layer of type `S` off the stack.
    func removeScreens<S: Screen>(_ type: S.Type) {
        overlays.removeAll { $0 is S }
    }
}
