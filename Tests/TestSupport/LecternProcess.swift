import Foundation

/// Runs the built `lectern` executable as a person would, with isolated XDG directories.
public struct LecternProcess {
    /// What a run produced.
    public struct Result {
        public let status: Int32
        public let stdout: String
        public let stderr: String

        /// Standard output parsed as JSON.
        public var json: Any? {
            try? JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
        }
    }

    /// The executable: `$LECTERN_BIN`, else `.build/debug/lectern` of this repository.
    public static var executable: String {
        if let path = ProcessInfo.processInfo.environment["LECTERN_BIN"], !path.isEmpty { return path }
        return Fixtures.repositoryRoot + "/.build/debug/lectern"
    }

    /// A fresh home for XDG state, shared by the runs of one test.
    public let home: String

    public init(home: String = Fixtures.temporaryDirectory("lectern-home")) {
        self.home = home
    }

    /// Runs `lectern arguments…` (in `directory`, else the test's own), killing it after `timeout` seconds.
    public func run(_ arguments: [String], timeout: TimeInterval = 120, environment extra: [String: String] = [:],
                    directory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home
        environment["XDG_DATA_HOME"] = home + "/data"
        environment["XDG_CONFIG_HOME"] = home + "/config"
        environment["XDG_CACHE_HOME"] = home + "/cache"
        // Hermetic by default: no background download of EDRLab's production CRL. Tests of the
        // CRL service name their own URL.
        if environment["LECTERN_LCP_CRL_URL"] == nil { environment["LECTERN_LCP_CRL_URL"] = "none" }
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain both pipes concurrently so a large output cannot block the child.
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        group.enter()
        DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        // SIGKILL: children of the test runner inherit a blocked SIGTERM.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        group.wait()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }
}
