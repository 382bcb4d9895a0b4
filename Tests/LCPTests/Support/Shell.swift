import Foundation
import TestSupport

/// Runs the command line tools the tests build fixtures with (`openssl`, `python3`).
enum Shell {
    /// Runs `executable` with `arguments`, feeding `input` on stdin; returns stdout, throws with
    /// stderr when the exit status is not 0.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: Data? = nil, in directory: String? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe(), inp = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inp
        try process.run()
        nonisolated(unsafe) var output = Data(), errors = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { output = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errors = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        if let input { inp.fileHandleForWriting.write(input) }
        try inp.fileHandleForWriting.close()
        process.waitUntilExit()
        group.wait()
        guard process.terminationStatus == 0 else {
            throw ShellError(command: ([executable] + arguments).joined(separator: " "),
                             message: String(decoding: errors, as: UTF8.self))
        }
        return output
    }

    @discardableResult
    static func openssl(_ arguments: [String], input: Data? = nil, in directory: String? = nil) throws -> Data {
        try run("/usr/bin/openssl", arguments, input: input, in: directory)
    }

    /// RFC 1951 raw DEFLATE (what LCP's `Compression Method="8"` means), with Python's zlib.
    static func rawDeflate(_ data: Data) throws -> Data {
        try run("/usr/bin/python3", ["-c", """
            import sys, zlib
            c = zlib.compressobj(9, zlib.DEFLATED, -15)
            sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())
            """], input: data)
    }
}

struct ShellError: Error, CustomStringConvertible {
    let command: String
    let message: String
    var description: String { "\(command): \(message)" }
}
