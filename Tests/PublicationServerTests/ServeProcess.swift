import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A running `lectern serve`, started like a person would, with isolated XDG directories;
/// ready once it has printed one reader URL per publication.
final class ServeProcess {
    let process = Process()
    /// The reader page URL of each publication, in the order given.
    private(set) var readerURLs: [String] = []
    private let output = Pipe(), errors = Pipe()

    /// Starts `lectern serve arguments…` and waits for its URL lines (or its exit).
    init(_ arguments: [String], publications: Int, home: LecternProcess) throws {
        process.executableURL = URL(fileURLWithPath: LecternProcess.executable)
        process.arguments = ["serve"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.home
        environment["XDG_DATA_HOME"] = home.home + "/data"
        environment["XDG_CONFIG_HOME"] = home.home + "/config"
        environment["XDG_CACHE_HOME"] = home.home + "/cache"
        environment["LECTERN_LCP_CRL_URL"] = "none"
        process.environment = environment
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Reads lines until all URLs are there; a process that exits ends the read (EOF).
        let reader = output.fileHandleForReading
        var pending = Data()
        while readerURLs.count < publications {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                readerURLs.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending = Data(pending[(newline + 1)...])
            }
        }
        if readerURLs.count < publications {
            process.waitUntilExit()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw RawHTTPClient.Failure(description: "lectern serve exited with \(process.terminationStatus): \(message)")
        }
    }

    /// The port of the first URL.
    var port: Int { port(0) }

    /// The port of a publication's URL: each publication has its own origin.
    func port(_ index: Int) -> Int {
        Int(URL(string: readerURLs[index])!.port!)
    }

    /// The path of a reader URL (`/SECRET/pub/ID/`), for the raw client.
    func path(_ index: Int = 0) -> String {
        let afterScheme = readerURLs[index].dropFirst("http://".count)
        return String(afterScheme[afterScheme.firstIndex(of: "/")!...])
    }

    var client: RawHTTPClient { RawHTTPClient(port: port) }

    /// A client for the publication `index`'s origin.
    func client(_ index: Int) -> RawHTTPClient { RawHTTPClient(port: port(index)) }

    /// A client that calls as the reader page of publication `index` does: with the
    /// capability that a freshly served reader page hands its script.
    func readerPageClient(_ index: Int = 0) throws -> RawHTTPClient {
        var client = client(index)
        client.fixedHeaders["Lectern-Capability"] = try Self.capability(in: client.request(path(index)).text)
        return client
    }

    /// The capability in a reader page's HTML.
    static func capability(in page: String) throws -> String {
        let marker = "<meta name=\"lectern-capability\" content=\""
        guard let start = page.range(of: marker), let end = page[start.upperBound...].firstIndex(of: "\"") else {
            throw RawHTTPClient.Failure(description: "no capability in the reader page")
        }
        return String(page[start.upperBound..<end])
    }

    /// Stops the server and returns what it wrote on standard error.
    func stopAndReadErrors() -> String {
        stop()
        return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Sends SIGTERM and returns the exit status once the process has ended.
    @discardableResult
    func stop() -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
