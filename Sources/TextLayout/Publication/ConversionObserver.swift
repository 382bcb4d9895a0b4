/// What a ``ContentDocumentLoader`` tells an observer about each document it converts: how much
/// of it was converted before anything was handed over. A chapter's first page waits for that
/// much, so tests count it (a long chapter reopened at a saved place must be shown from a first
/// part, not converted whole first), and the reader logs it.
public struct ConversionObserver: Sendable {
    /// One handing over of converted text.
    public enum Event: Sendable, Hashable {
        /// The first part of the document at `href` was handed over, holding `length` offsets,
        /// once `bytes` bytes of its resource were read for it (a prefix, or the head and a
        /// stretch from a checkpoint; all of it when read whole): the rest is still being converted.
        case firstPart(href: String, length: Int, bytes: Int)
        /// The conversion of the document at `href` ended: all of it, `length` offsets, from
        /// `bytes` bytes of source.
        case whole(href: String, length: Int, bytes: Int)
    }

    private let body: @Sendable (Event) -> Void

    public init(_ body: @escaping @Sendable (Event) -> Void) {
        self.body = body
    }

    func callAsFunction(_ event: Event) { body(event) }

    /// The observer that loaders made in this task take (``ContentDocumentLoader/init(publication:options:)``):
    /// set with `ConversionObserver.$current.withValue(observer) { … }` around the code that
    /// makes them, so that a test observes the loads of the reader it builds and no other.
    @TaskLocal public static var current: ConversionObserver?
}
