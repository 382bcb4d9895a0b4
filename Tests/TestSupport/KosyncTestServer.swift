import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs `Tests/Servers/kosync_server.py`, a kosync server that follows koreader-sync-server,
/// on a free 127.0.0.1 port for one test; its state is read and steered through its control
/// routes.
public final class KosyncTestServer: @unchecked Sendable {
    public static let scriptPath = Fixtures.repositoryRoot + "/Tests/Servers/kosync_server.py"

    public let port: Int
    private let process: Process
    private let lock = NSLock()
    private var stopped = false

    public init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.scriptPath, "--port", "0"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line says where it listens; the read ends at end of file if it died.
        var line = Data()
        while let byte = try pipe.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 10 {
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("LISTENING "), let port = Int(text.dropFirst("LISTENING ".count)) else {
            process.terminate()
            throw Command.Failure(description: "the kosync server did not start: \(text)")
        }
        self.port = port
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The server's state: users, documents by `user:document`, requests (method, path, headers).
    public func state() throws -> [String: Any] {
        let data = try Command.run(["curl", "-sf", baseURL + "/__state"])
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The place stored for `document` of `user`, nil when none.
    public func place(user: String, document: String) throws -> [String: Any]? {
        (try state()["documents"] as? [String: Any])?[user + ":" + document] as? [String: Any]
    }

    /// The requests the protocol's routes received (method, path, headers).
    public func requests() throws -> [[String: Any]] {
        try state()["requests"] as? [[String: Any]] ?? []
    }

    /// Steers the server: `now` (its clock), `drop` (closes connections unanswered), `put`.
    public func control(_ body: [String: Any]) throws {
        let json = try JSONSerialization.data(withJSONObject: body)
        try Command.run(["curl", "-sf", "-X", "POST", "--data-binary", "@-", baseURL + "/__control"], input: json)
    }

    /// Stops the server (idempotent).
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
