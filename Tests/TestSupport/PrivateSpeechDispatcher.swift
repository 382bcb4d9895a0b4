import Foundation

/// A speech-dispatcher server of the test's own: its configuration, socket and log in a
/// temporary folder, its espeak-ng module speaking to ALSA's `null` device (no sound card
/// needed: the module still synthesises and reports index marks). Stopped by ``stop()``,
/// which ends only this process.
public final class PrivateSpeechDispatcher: @unchecked Sendable {
    // @unchecked: the process is only started in init and terminated in stop().
    public static let executable = "/usr/bin/speech-dispatcher"
    public static let espeakModule = "/usr/lib/speech-dispatcher-modules/sd_espeak-ng"

    /// `SPEECHD_ADDRESS` for clients of this server.
    public let address: String
    public let folder: String
    private let process = Process()

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts the server and waits until its socket is there.
    public init() throws {
        for path in [Self.executable, Self.espeakModule] where !FileManager.default.isExecutableFile(atPath: path) {
            throw Missing(description: "\(path) is missing: `make deps` installs speech-dispatcher and speech-dispatcher-espeak-ng")
        }
        // A short path: a Unix socket's path is at most 107 bytes.
        var template = Array("/tmp/lectern-spd-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Missing(description: "cannot make a temporary folder") }
        folder = String(cString: made)
        let configuration = folder + "/conf"
        try FileManager.default.createDirectory(atPath: configuration + "/modules", withIntermediateDirectories: true)
        try """
            LogLevel 3
            AudioOutputMethod "alsa"
            AudioALSADevice "null"
            AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
            DefaultModule espeak-ng
            DefaultLanguage "en"

            """.write(toFile: configuration + "/speechd.conf", atomically: true, encoding: .utf8)
        try "".write(toFile: configuration + "/modules/espeak-ng.conf", atomically: true, encoding: .utf8)
        let socket = folder + "/sock"
        address = "unix_socket:" + socket
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["-s", "-t", "0", "-C", configuration, "-c", "unix_socket", "-S", socket,
                             "-L", folder, "-P", folder + "/pid"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            try StateWait.blocking("speech-dispatcher's socket \(socket)") {
                guard process.isRunning else { throw Missing(description: "speech-dispatcher exited (\(process.terminationStatus))") }
                return FileManager.default.fileExists(atPath: socket)
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Ends the server started here (by its process id) and removes its folder.
    public func stop() {
        if process.isRunning {
            // SIGKILL: on SIGTERM the server waits for its module and may never exit. Its
            // module leaves when the server's pipe closes.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    deinit { stop() }
}
