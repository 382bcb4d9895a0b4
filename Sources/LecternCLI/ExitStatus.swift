import ArgumentParser

/// The exit statuses of `lectern check` and `lectern info` (DESIGN.md §5).
enum ExitStatus {
    /// Everything readable.
    static let ok = ExitCode(0)
    /// Opened, but some resources failed.
    static let someFailed = ExitCode(1)
    /// Cannot be opened.
    static let cannotOpen = ExitCode(2)
    /// Opened, but restricted by its protection.
    static let restricted = ExitCode(3)
}
