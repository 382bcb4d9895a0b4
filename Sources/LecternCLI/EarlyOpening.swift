import Bookshelf
import Shared
import Synchronization

/// The opening of the publication named by `lectern open PATH`, started before the library
/// database and the terminal are set up, so that the two run side by side: reading a large
/// book's package takes longer than either (issue #15, first page of a 2,014-item book).
///
/// It is the reader's own opening, not a guess: the first time the reader asks to open the
/// same path it is handed this one, and a password the opening needs meanwhile is asked
/// through the reader's dialog once the reader is there to show it.
final class EarlyOpening: Sendable {
    private let path: String
    private let task: Task<Result<OpenedPublication, OpenFailure>, Never>
    private let handedOver = Atomic<Bool>(false)
    private let asker: CredentialsAskerHandover

    /// Starts opening `path` (absolute) with ``UIComposition/open``.
    init(path: String) {
        self.path = path
        let asker = CredentialsAskerHandover()
        self.asker = asker
        task = Task.detached {
            await UIComposition.open(path, true) { request, sender in await asker.ask(request, sender) }
        }
    }

    /// Waits for the early opening when the reader never took it (it refused to start, or
    /// opened something else) and closes what it opened: the program must not end while
    /// another thread is still reading, decrypting or writing the library.
    func finish() async {
        guard handedOver.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        asker.install(nil)
        if case .success(let opened) = await task.value { opened.publication.close() }
    }

    /// ``UIComposition/open``, except that the first opening of the early path with prompts
    /// allowed is the early one.
    var opening: PublicationOpening {
        { [self] path, allowUserInteraction, onAskCredentials in
            if path == self.path, allowUserInteraction,
               handedOver.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
                asker.install(onAskCredentials)
                return await task.value
            }
            return await UIComposition.open(path, allowUserInteraction, onAskCredentials)
        }
    }
}

/// Holds a credentials prompt asked for before the reader has given its dialog, until it does.
private final class CredentialsAskerHandover: Sendable {
    private enum State {
        case waiting([CheckedContinuation<OnAskCredentials?, Never>])
        case installed(OnAskCredentials?)
    }

    private let state = Mutex<State>(.waiting([]))

    /// Gives the reader's prompt (nil: the reader does not prompt) to every question asked so far and to come.
    func install(_ asker: OnAskCredentials?) {
        let waiting = state.withLock { state -> [CheckedContinuation<OnAskCredentials?, Never>] in
            guard case .waiting(let waiting) = state else { return [] }
            state = .installed(asker)
            return waiting
        }
        for continuation in waiting { continuation.resume(returning: asker) }
    }

    func ask(_ request: CredentialsRequest, _ sender: (any Sendable)?) async -> String? {
        let asker = await withCheckedContinuation { (continuation: CheckedContinuation<OnAskCredentials?, Never>) in
            let installed = state.withLock { state -> OnAskCredentials?? in
                switch state {
                case .installed(let asker): return .some(asker)
                case .waiting(var waiting):
                    waiting.append(continuation)
                    state = .waiting(waiting)
                    return nil
                }
            }
            if let installed { continuation.resume(returning: installed) }
        }
        return await asker?(request, sender)
    }
}
