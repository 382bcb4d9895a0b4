import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Reads a secret from the controlling terminal with echo off, so that it appears neither on
/// the screen nor in the shell's history (as a `--password` argument would).
enum TerminalSecret {
    /// The line typed after `prompt`, without its newline; nil when there is no terminal or
    /// the input ended (Ctrl-D).
    static func read(prompt: String) -> String? {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var saved = termios()
        let canRestore = tcgetattr(fd, &saved) == 0
        if canRestore {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            // Echo goes off before the prompt shows, and nothing typed ahead is discarded
            // (TCSANOW, not TCSAFLUSH): keys pressed as soon as the prompt appears are read.
            _ = tcsetattr(fd, TCSANOW, &quiet)
        }
        defer { if canRestore { _ = tcsetattr(fd, TCSANOW, &saved) } }
        Output.writeAll(fd, Array(prompt.utf8))
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = Glibc.read(fd, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A || byte == 0x0D { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
