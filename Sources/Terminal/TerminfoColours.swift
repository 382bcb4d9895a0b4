import CLecternCurses

/// What a terminal's terminfo entry says about colours, read without starting the screen
/// (for `lectern doctor`, which must not take over the terminal).
public enum TerminfoColours {
    /// The number of colours terminfo gives `term`: nil when it has no entry, 0 for none.
    public static func count(term: String) -> Int? {
        var status: Int32 = 0
        guard setupterm(term, -1, &status) == OK else { return nil }
        return Int(max(0, tigetnum("colors")))
    }
}
