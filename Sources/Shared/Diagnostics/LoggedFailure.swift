import Logging

extension Logger {
    /// The result of `body`, or nil once its failure is logged as `what` could not be done.
    ///
    /// For the failures nothing can be shown for (a background refresh, a cache, a lookup that
    /// has a fallback): they still leave a trace under `LECTERN_LOG`. A failure a person is
    /// waiting on is returned to them instead.
    @discardableResult
    public func attempt<T, Failure: Error>(_ what: @autoclosure () -> String, level: Logger.Level = .warning,
                                           _ body: () throws(Failure) -> T) -> T? {
        do {
            return try body()
        } catch {
            log(level: level, "\(what()) failed: \(String(describing: error))")
            return nil
        }
    }
}
