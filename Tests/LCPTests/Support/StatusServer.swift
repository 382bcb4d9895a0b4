import Foundation
import Shared
import TestSupport

/// `Tests/Servers/lcp_status_server.py` run on 127.0.0.1 for one test: a real License Status
/// server with real state (registrations, statuses, updated licenses), configured through its
/// control API.
final class StatusServer: @unchecked Sendable {
    let process: Process
    let port: Int
    /// Its own record of unresponsive hosts: a test that makes the server hang on purpose must
    /// still reach its control API.
    private let http = CurlHTTPClient(unresponsiveHosts: UnresponsiveHosts())

    init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Fixtures.repositoryRoot + "/Tests/Servers/lcp_status_server.py"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw ShellError(command: "lcp_status_server.py", message: "no port announced: \(text)")
        }
        self.port = port
    }

    deinit { stop() }

    func stop() {
        guard process.isRunning else { return }
        // SIGKILL: the test process may have passed a mask blocking SIGTERM to its child.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    func statusURL(_ licenseID: String) -> String { "\(base)/licenses/\(licenseID)/status" }

    /// Merges `values` into the server's state for the license.
    func configure(_ licenseID: String, _ values: [String: Any]) throws {
        let body = try JSONSerialization.data(withJSONObject: values)
        let response = try http.send(HTTPRequest(url: "\(base)/_control/licenses/\(licenseID)", method: "POST", body: body, timeout: 5)).get()
        guard response.statusCode == 200 else { throw ShellError(command: "configure", message: "HTTP \(response.statusCode)") }
    }

    /// The server's state for the license, with its request counters.
    func state(_ licenseID: String) throws -> [String: Any] {
        let response = try http.send(HTTPRequest(url: "\(base)/_control/licenses/\(licenseID)", timeout: 5)).get()
        return try JSONSerialization.jsonObject(with: response.body) as? [String: Any] ?? [:]
    }

    func counter(_ name: String, _ licenseID: String) throws -> Int {
        ((try state(licenseID))["counters"] as? [String: Any])?[name] as? Int ?? -1
    }

    /// Serves a file at `/files/<name>` (see the server's docstring for `values`).
    func serveFile(_ name: String, _ values: [String: Any]) throws {
        let body = try JSONSerialization.data(withJSONObject: values)
        let response = try http.send(HTTPRequest(url: "\(base)/_control/files/\(name)", method: "POST", body: body, timeout: 5)).get()
        guard response.statusCode == 200 else { throw ShellError(command: "serveFile", message: "HTTP \(response.statusCode)") }
    }

    func fileURL(_ name: String) -> String { "\(base)/files/\(name)" }

    /// One request the server received (control requests excluded).
    struct LoggedRequest {
        let method: String
        let path: String
        let query: String
        let range: String?
    }

    /// The requests received so far, in order.
    func log() throws -> [LoggedRequest] {
        let response = try http.send(HTTPRequest(url: "\(base)/_control/log", timeout: 5)).get()
        let entries = try JSONSerialization.jsonObject(with: response.body) as? [[String: Any]] ?? []
        return entries.map {
            LoggedRequest(method: $0["method"] as? String ?? "", path: $0["path"] as? String ?? "",
                          query: $0["query"] as? String ?? "", range: $0["range"] as? String)
        }
    }

    func clearLog() throws {
        _ = try http.send(HTTPRequest(url: "\(base)/_control/log", method: "DELETE", timeout: 5)).get()
    }
}
