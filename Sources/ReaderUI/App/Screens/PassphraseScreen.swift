import Synchronization
import Terminal

/// The passphrase (or password) dialog, above the page while a publication opens: Enter
/// answers the opening waiting on it, Esc cancels (the publication stays restricted).
struct PassphraseScreen: Screen {
    var state: PassphraseDialogState
    /// The opening waiting for the answer.
    let reply: CredentialsReply

    mutating func handle(_ key: Key, size: (rows: Int, columns: Int)) -> [ScreenEffect] {
        switch state.handle(key) {
        case .none: return []
        case .submit(let text): return [.pop, .answerCredentials(reply, text)]
        case .cancel: return [.pop, .answerCredentials(reply, nil)]
        }
    }

    func draw(into painter: Painter) {
        PopupViews.drawPassphrase(state, painter: painter)
    }

    var placesCursor: Bool { true }
}

/// The answer an opening waits for, given once: a dialog taken off the stack without an
/// answer (another opening replaced it, the page changed) answers "cancelled", so that the
/// opening never waits forever.
final class CredentialsReply: Sendable {
    private let pending: Mutex<CheckedContinuation<String?, Never>?>

    init(_ continuation: CheckedContinuation<String?, Never>) {
        pending = Mutex(continuation)
    }

    /// Answers the opening with `text` (nil: cancelled); later answers are ignored.
    func answer(_ text: String?) {
        pending.withLock { $0.take() }?.resume(returning: text)
    }

    deinit { answer(nil) }
}
