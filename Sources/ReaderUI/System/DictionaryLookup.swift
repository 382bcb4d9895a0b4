import FoundationEssentials
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// Looks a word up in a local dictionary: `sdcv` (StarDict dictionaries) when installed, else
/// `dict` (dictd). Blocking: call from a background task, never the main actor.
enum DictionaryLookup {
    /// What a lookup found.
    enum Outcome: Sendable, Equatable {
        /// The program's answer (control characters removed), and which program gave it.
        case definition(String, program: String)
        /// The program ran but knows no entry for the word.
        case notFound(program: String)
        /// Neither `sdcv` nor `dict` is installed.
        case noDictionary
    }

    /// The most a definition may take (the rest is cut, and said so).
    static let outputLimit = 64 * 1024
    /// How long a dictionary may take (a `dict` server that does not answer).
    static let timeout: Double = 10

    static func lookUp(_ word: String) -> Outcome {
        let command: [String]
        let program: String
        if let sdcv = ExternalCommand.find("sdcv") {
            command = [sdcv, "-n", "--utf8-output", word]
            program = "sdcv"
        } else if let dict = ExternalCommand.find("dict") {
            command = [dict, word]
            program = "dict"
        } else {
            return .noDictionary
        }
        guard let (status, output) = capture(command) else { return .notFound(program: program) }
        let text = TerminalText.sanitized(output).trimmed
        // sdcv answers "Nothing similar to WORD, sorry :(" with status 0; dict exits 20/21.
        if status != 0 || text.isEmpty || text.hasPrefix("Nothing similar to") { return .notFound(program: program) }
        return .definition(text, program: program)
    }

    /// The word to look up in `text` (a selection): its first word, without the quotes and
    /// dashes around it; nil when there is none.
    static func word(in text: String) -> String? {
        let words = text.split { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "’" && $0 != "-" }
        for word in words {
            let trimmed = String(word.drop { "'’-".contains($0) }.reversed().drop { "'’-".contains($0) }.reversed())
            if !trimmed.isEmpty { return String(trimmed.prefix(64)) }
        }
        return nil
    }

    /// Runs `arguments` with standard output captured (standard error discarded, no input);
    /// the exit status and what it wrote, or nil when it could not run or took too long.
    static func capture(_ arguments: [String]) -> (Int32, String)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        // The terminal belongs to the interface: the program must not write on it.
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let status = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
        close(ends[1])
        guard status == 0 else { close(ends[0]); return nil }
        defer { close(ends[0]) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while output.count < outputLimit {
            var poller = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            let ready = poll(&poller, 1, remaining)
            if ready < 0 { if errno == EINTR { continue }; break }
            if ready == 0 { timedOut = true; break }
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count < 0 { if errno == EINTR { continue }; break }
            if count == 0 { break }
            output += buffer[0..<count]
        }
        // Too slow or too long: the program is stopped rather than waited for.
        if timedOut || output.count >= outputLimit { kill(pid, SIGKILL) }
        var result: Int32 = 0
        while waitpid(pid, &result, 0) < 0 { if errno != EINTR { return nil } }
        if timedOut { return nil }
        var text = String(decoding: output.prefix(outputLimit), as: UTF8.self)
        if output.count >= outputLimit { text += "\n…" }
        let exit = (result & 0x7F) == 0 ? (result >> 8) & 0xFF : 128 + (result & 0x7F)
        return (exit, text)
    }
}
