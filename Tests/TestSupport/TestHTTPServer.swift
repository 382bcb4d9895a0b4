import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One route of a ``TestHTTPServer``: what the server answers for a path. Mirrors the route
/// objects documented in `Tests/Servers/test_http_server.py`.
public struct TestHTTPRoute: Sendable {
    /// What the server does with a request for the route.
    public enum Behaviour: String, Sendable {
        /// Answers with the status, headers and body.
        case respond
        /// Accepts the connection, reads the request and never answers.
        case hang
        /// Closes the connection without answering.
        case close
        /// Answers 200 with a JSON description of the request.
        case echo
    }

    public var path: String
    /// Whether `path` is a prefix rather than the exact path.
    public var matchesPrefix: Bool
    /// The methods allowed (others get 405); nil allows all.
    public var methods: [String]?
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    /// A file whose content is the body, read at each request (instead of `body`).
    public var bodyFile: String?
    /// Whether `Range` requests get a 206 with the slice (otherwise the whole body, 200).
    public var honoursRanges: Bool
    /// Whether `Content-Length` is sent (otherwise the connection closes after the body).
    public var sendsContentLength: Bool
    /// Seconds to wait before answering.
    public var delay: Double
    public var behaviour: Behaviour
    /// The `Authorization` header values accepted; others (or none) get `refusal`.
    public var authorization: [String]?
    /// A string the request body must contain, else `refusal`.
    public var bodyMustContain: String?
    /// The answer to a request without an accepted `Authorization` or body (default: 401).
    public var refusal: (status: Int, headers: [String: String], body: Data) = (401, [:], Data())
    /// Bodies served in turn, the last one repeating (instead of `body`).
    public var sequence: [Data]?
    /// The body sent `bytes` at a time, `interval` seconds before each (a crawling server).
    public var trickle: (bytes: Int, interval: Double)?

    public init(_ path: String, status: Int = 200, headers: [String: String] = [:], body: Data = Data(),
                bodyFile: String? = nil, honoursRanges: Bool = true, sendsContentLength: Bool = true,
                delay: Double = 0, methods: [String]? = nil, matchesPrefix: Bool = false,
                behaviour: Behaviour = .respond) {
        self.path = path
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyFile = bodyFile
        self.honoursRanges = honoursRanges
        self.sendsContentLength = sendsContentLength
        self.delay = delay
        self.methods = methods
        self.matchesPrefix = matchesPrefix
        self.behaviour = behaviour
    }

    /// A route answering `text` (UTF-8).
    public init(_ path: String, status: Int = 200, headers: [String: String] = [:], text: String,
                honoursRanges: Bool = true, delay: Double = 0, methods: [String]? = nil, matchesPrefix: Bool = false) {
        self.init(path, status: status, headers: headers, body: Data(text.utf8), honoursRanges: honoursRanges,
                  delay: delay, methods: methods, matchesPrefix: matchesPrefix)
    }

    var configuration: [String: Any] {
        var object: [String: Any] = [
            "path": path, "match": matchesPrefix ? "prefix" : "exact", "status": status, "headers": headers,
            "ranges": honoursRanges, "content_length": sendsContentLength, "delay": delay,
            "behaviour": behaviour.rawValue,
        ]
        if let bodyFile { object["body_file"] = bodyFile } else { object["body_base64"] = body.base64EncodedString() }
        if let methods { object["methods"] = methods }
        if let authorization { object["authorization"] = authorization }
        if let bodyMustContain { object["body_contains"] = bodyMustContain }
        if authorization != nil || bodyMustContain != nil {
            object["refusal"] = ["status": refusal.status, "headers": refusal.headers,
                                 "body_base64": refusal.body.base64EncodedString()] as [String: Any]
        }
        if let sequence { object["sequence_base64"] = sequence.map { $0.base64EncodedString() } }
        if let trickle { object["trickle"] = ["bytes": trickle.bytes, "interval": trickle.interval] as [String: Any] }
        return object
    }
}

/// A request the ``TestHTTPServer`` received.
public struct TestHTTPRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    public var query: String
    /// Header values by lower-cased name.
    public var headers: [String: String]
    public var body: Data
}

/// Why the test server could not be used.
public struct TestHTTPServerError: Error, CustomStringConvertible {
    public let description: String
}

/// Runs `Tests/Servers/test_http_server.py` on a free 127.0.0.1 port for the duration of a test.
///
/// ```swift
/// let server = try TestHTTPServer(routes: [TestHTTPRoute("/a.txt", text: "hello")])
/// defer { server.stop() }
/// let url = server.url("/a.txt")
/// ```
public final class TestHTTPServer: @unchecked Sendable {
    /// The script, in the repository.
    public static let scriptPath = Fixtures.repositoryRoot + "/Tests/Servers/test_http_server.py"

    /// The port the server listens on.
    public let port: Int
    private let process: Process
    private let stdout: FileHandle
    private let directory: String
    private let configPath: String
    private let logPath: String
    private let lock = NSLock()
    private var stopped = false

    /// Starts the server with `routes` and returns once it accepts connections.
    public init(routes: [TestHTTPRoute]) throws {
        directory = Fixtures.temporaryDirectory("http-server")
        configPath = directory + "/routes.json"
        logPath = directory + "/requests.jsonl"
        try Self.writeConfiguration(routes, to: configPath)
        _ = FileManager.default.createFile(atPath: logPath, contents: Data())

        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.scriptPath, "--config", configPath, "--port", "0", "--log", logPath]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        stdout = pipe.fileHandleForReading
        try process.run()
        do {
            let line = try Self.readLine(from: stdout, timeout: 15)
            guard line.hasPrefix("LISTENING "), let port = Int(line.dropFirst("LISTENING ".count)) else {
                throw TestHTTPServerError(description: "unexpected output from the test server: \(line)")
            }
            self.port = port
        } catch {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw error
        }
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The URL of `path` (which starts with `/`) on this server.
    public func url(_ path: String) -> String { baseURL + path }

    /// Replaces the routes; returns once the server uses the new ones.
    public func setRoutes(_ routes: [TestHTTPRoute]) throws {
        try Self.writeConfiguration(routes, to: configPath)
        kill(process.processIdentifier, SIGHUP)
        let line = try Self.readLine(from: stdout, timeout: 15)
        guard line == "RELOADED" else { throw TestHTTPServerError(description: "reload failed: \(line)") }
    }

    /// The requests received so far, in order.
    public var requests: [TestHTTPRequest] {
        let text = String(decoding: FileManager.default.contents(atPath: logPath) ?? Data(), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return TestHTTPRequest(
                method: object["method"] as? String ?? "", path: object["path"] as? String ?? "",
                query: object["query"] as? String ?? "", headers: object["headers"] as? [String: String] ?? [:],
                body: Data(base64Encoded: object["body_base64"] as? String ?? "") ?? Data())
        }
    }

    /// Stops the server (idempotent). Connections left open are cut.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        if process.isRunning {
            process.terminate()
            // Never hang a test run on a server that ignores SIGTERM.
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A URL on 127.0.0.1 where nothing listens: connecting to it is refused.
    public static func refusingURL(_ path: String = "/") -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(fd >= 0, "socket() failed")
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        precondition(bound, "cannot bind a loopback socket")
        let port = UInt16(bigEndian: address.sin_port)
        // The socket is bound but never listens, so connections to the port are refused.
        return "http://127.0.0.1:\(port)\(path)"
    }

    private static func writeConfiguration(_ routes: [TestHTTPRoute], to path: String) throws {
        let data = try JSONSerialization.data(withJSONObject: ["routes": routes.map(\.configuration)])
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// Reads one line from `handle`, waiting at most `timeout` seconds.
    private static func readLine(from handle: FileHandle, timeout: Double) throws -> String {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw TestHTTPServerError(description: "the test server did not answer in time") }
            var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(remaining * 1000))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            var byte: UInt8 = 0
            let count = read(handle.fileDescriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { throw TestHTTPServerError(description: "the test server exited") }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
