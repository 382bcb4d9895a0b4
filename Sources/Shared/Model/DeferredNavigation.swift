import Synchronization

/// A publication's navigation collections — its table of contents and the collections such as
/// `landmarks` and `pageList` — worked out the first time anyone asks for them.
///
/// An EPUB's navigation document and NCX list every chapter, often thousands of entries whose
/// hrefs must all be resolved; a reader needs none of that to paint the first page (issue #15:
/// "opening must not walk every TOC entry before painting"). The parser hands its work over as
/// a closure, run once, on whichever thread asks first; others asking meanwhile wait for it.
public final class DeferredNavigation: Sendable {
    /// What the navigation is made of.
    public struct Collections: Sendable, Hashable {
        public var tableOfContents: [Link]
        /// `landmarks`, `pageList`, `loi`…
        public var subcollections: [String: [PublicationCollection]]

        public init(tableOfContents: [Link] = [], subcollections: [String: [PublicationCollection]] = [:]) {
            self.tableOfContents = tableOfContents
            self.subcollections = subcollections
        }
    }

    private enum State {
        case pending(@Sendable () -> Collections)
        case ready(Collections)
    }

    private let state: Mutex<State>

    /// - Parameter build: reads the navigation; run at most once.
    public init(_ build: @escaping @Sendable () -> Collections) {
        state = Mutex(.pending(build))
    }

    /// The collections, built now if nobody has asked before.
    public var collections: Collections {
        state.withLock { state in
            switch state {
            case .ready(let collections):
                return collections
            case .pending(let build):
                let collections = build()
                state = .ready(collections)
                return collections
            }
        }
    }

    /// Whether the collections are already built (asking never builds them).
    public var isBuilt: Bool {
        state.withLock { if case .ready = $0 { true } else { false } }
    }
}
