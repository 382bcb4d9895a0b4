import Foundation

/// Builds ZIP archives for tests with the `zip` command line tool (Info-ZIP), so that tests
/// can make hostile or unusual packages (entry order, stored/deflated, names) on the fly.
public struct ZipBuilder {
    public enum Compression { case stored, deflated }

    public struct Entry {
        public var name: String
        public var data: Data
        public var compression: Compression

        public init(_ name: String, _ data: Data, compression: Compression = .deflated) {
            self.name = name
            self.data = data
            self.compression = compression
        }

        public init(_ name: String, _ text: String, compression: Compression = .deflated) {
            self.init(name, Data(text.utf8), compression: compression)
        }
    }

    /// Writes `entries`, in order, to a new archive at `path` (replacing it).
    public static func write(_ entries: [Entry], to path: String) throws {
        let staging = Fixtures.temporaryDirectory("zip-staging")
        defer { try? FileManager.default.removeItem(atPath: staging) }
        try? FileManager.default.removeItem(atPath: path)
        for entry in entries {
            let file = staging + "/" + entry.name
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            if entry.name.hasSuffix("/") { continue }
            try entry.data.write(to: URL(fileURLWithPath: file))
        }
        for entry in entries {
            let level = entry.compression == .stored ? "-0" : "-9"
            try run("/usr/bin/zip", ["-X", "-q", level, path, entry.name], in: staging)
        }
    }

    /// Runs a command, throwing when it fails.
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String], in directory: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw NSError(domain: "ZipBuilder", code: Int(process.terminationStatus),
                          userInfo: [NSLocalizedDescriptionKey: "\(executable) \(arguments): \(text)"])
        }
        return text
    }
}
