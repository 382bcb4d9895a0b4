import Foundation

/// Runs external programs from tests (python3, openssl, zip…) and returns their raw output.
public enum Command {
    /// Why a command failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Runs `arguments[0]` (looked up in `PATH`) with the rest as arguments; returns its
    /// standard output as bytes, throwing when it exits with a non-zero status.
    @discardableResult
    public static func run(_ arguments: [String], input: Data? = nil, in directory: String? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        // Feed stdin and drain stderr on other threads while stdout is read here, so that no
        // pipe can fill up and block the child (or this process) when data is large.
        let errorData = ErrorCollector()
        let drain = Thread { errorData.data = errors.fileHandleForReading.readDataToEndOfFile() }
        drain.start()
        let writer = stdin.fileHandleForWriting
        let feed = Thread {
            if let input { try? writer.write(contentsOf: input) }
            try? writer.close()
        }
        feed.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !drain.isFinished || !feed.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.joined(separator: " ")) exited with \(process.terminationStatus): "
                + String(decoding: errorData.data, as: UTF8.self))
        }
        return data
    }

    /// Runs a Python 3 program given as text, with `arguments` in `sys.argv[1:]`.
    @discardableResult
    public static func python(_ program: String, _ arguments: [String] = [], input: Data? = nil) throws -> Data {
        try run(["python3", "-c", program] + arguments, input: input)
    }

    private final class ErrorCollector: @unchecked Sendable {
        var data = Data()
    }
}
