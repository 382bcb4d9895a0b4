import Bookshelf
import Terminal

/// The pages shown instead of a book (#30): while it opens, when its protection refuses it,
/// when it cannot be read. Each is made from what `page` carries when a key comes or the page
/// is drawn; their keys leave (or retry) through effects.
@MainActor
struct OpeningScreen: Screen {
    let title: String

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        key == .character("q") || key == .escape ? [.cancelOpening] : []
    }

    func draw(into painter: Painter) {
        painter.text("Opening \(title)…", row: painter.rows / 2, column: 2, .secondary)
        painter.screen.setCursor(row: nil)
    }
}

/// A publication its protection refuses: why, and what to do; Enter tries again when that can help.
@MainActor
struct RestrictedScreen: Screen {
    let info: RestrictedInfo
    let retry: (path: String, entry: LibraryEntry?)

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        var effects: [ScreenEffect] = []
        if key == .enter, info.canRetry { effects.append(.retryOpening(path: retry.path, entry: retry.entry)) }
        if key == .character("q") || key == .escape { effects.append(.backFromBook) }
        return effects
    }

    func draw(into painter: Painter) {
        PopupViews.drawRestricted(info, painter: painter)
        painter.screen.setCursor(row: nil)
    }
}

/// A publication that could not be opened, and why.
@MainActor
struct FailureScreen: Screen {
    let title: String
    let message: String

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        key == .character("q") || key == .escape || key == .enter ? [.backFromBook] : []
    }

    func draw(into painter: Painter) {
        PopupViews.drawMessage(title: title, lines: [message, "", "q back"], painter: painter)
        painter.screen.setCursor(row: nil)
    }
}
