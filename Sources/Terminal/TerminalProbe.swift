import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Asks the terminal a question before the screen is set up — its graphics abilities, its
/// cell size in pixels — and reads the answer, with a short time limit: a terminal that does
/// not answer costs that much, once, at start.
public enum TerminalProbe {
    /// Writes `query` to the terminal and collects what it answers until `isComplete` says
    /// the answer is whole, or `timeoutMilliseconds` have passed; nil when standard input or
    /// output is not a terminal, or nothing came back.
    public static func ask(_ query: String, timeoutMilliseconds: Int = 300, isComplete: (String) -> Bool) -> String? {
        guard isatty(0) == 1, isatty(1) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(0, &saved) == 0 else { return nil }
        var raw = saved
        // No echo, no line buffering: the answer arrives byte by byte and must not be shown.
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON)
        guard tcsetattr(0, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(0, TCSANOW, &saved) }
        let bytes = Array(query.utf8)
        guard bytes.withUnsafeBytes({ write(1, $0.baseAddress, $0.count) }) == bytes.count else { return nil }
        var answer: [UInt8] = []
        let deadline = monotonicMilliseconds() + timeoutMilliseconds
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let left = deadline - monotonicMilliseconds()
            guard left > 0 else { break }
            var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(left))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = read(0, &buffer, buffer.count)
            guard count > 0 else { break }
            answer += buffer[0..<count]
            if answer.count > 4096 || isComplete(String(decoding: answer, as: UTF8.self)) { break }
        }
        return answer.isEmpty ? nil : String(decoding: answer, as: UTF8.self)
    }

    /// The size of a cell in pixels from the window size the terminal gives the kernel
    /// (`TIOCGWINSZ`: xterm, kitty, foot, WezTerm fill in the pixels); nil when it does not.
    public static func cellPixelSize() -> (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0, size.ws_xpixel > 0, size.ws_ypixel > 0 else {
            return nil
        }
        let width = Int(size.ws_xpixel) / Int(size.ws_col), height = Int(size.ws_ypixel) / Int(size.ws_row)
        return width > 0 && height > 0 ? (width, height) : nil
    }

    private static func monotonicMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
