import Shared

extension ReaderApp {
    /// The reader's diagnostic log (``Diagnostics``): failures also said on the status line,
    /// with what a message has no room for.
    nonisolated static let log = Diagnostics.logger("lectern.reader")
}
