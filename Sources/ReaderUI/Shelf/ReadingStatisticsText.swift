import Bookshelf
import Shared

/// How a book's reading statistics are told: in the cover panel (a line each) and on the
/// status line (`I` on the bookshelf, where any window shows them).
enum ReadingStatisticsText {
    /// "Read 2 h 10 in 3 sessions" and "12 pages a session"; nothing for a book not read yet.
    static func lines(_ statistics: BookReadingStatistics?) -> [String] {
        guard let (time, pages) = parts(statistics) else { return [] }
        return ["Read " + time, pages]
    }

    /// One status line for `title`: "“Title”: read 2 h 10 in 3 sessions · 12 pages a session".
    static func summary(title: String, _ statistics: BookReadingStatistics?) -> String {
        let name = "\"\(TerminalText.singleLine(title))\""
        guard let (time, pages) = parts(statistics) else { return "\(name): not read in Lectern yet." }
        return "\(name): read \(time) · \(pages)"
    }

    private static func parts(_ statistics: BookReadingStatistics?) -> (time: String, pages: String)? {
        guard let statistics, statistics.sessions > 0 else { return nil }
        let sessions = statistics.sessions == 1 ? "1 session" : "\(statistics.sessions) sessions"
        return ("\(ReadingPace.duration(minutes: statistics.seconds / 60)) in \(sessions)",
                statistics.pagesPerSession == 1 ? "1 page a session" : "\(statistics.pagesPerSession) pages a session")
    }
}
