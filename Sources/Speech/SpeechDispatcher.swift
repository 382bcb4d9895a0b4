#if canImport(Glibc)
import Glibc
#endif

/// speech-dispatcher, the desktop's speech service: whether its client library and its
/// server are there, to tell a person what the system offers (``SpeechdSpeaker`` speaks
/// through it).
public enum SpeechDispatcher {
    /// A description of what was found (`libspeechd, server /usr/bin/speech-dispatcher`), nil
    /// when the client library is absent.
    public static func detect(environment: [String: String]) -> String? {
        guard let handle = dlopen("libspeechd.so.2", RTLD_LAZY | RTLD_LOCAL) else { return nil }
        dlclose(handle)
        var found = ["libspeechd"]
        if let socket = socketPath(environment: environment), access(socket, F_OK) == 0 {
            found.append("running (\(socket))")
        } else if let server = executable("speech-dispatcher", environment: environment) {
            found.append("server \(server)")
        } else {
            found.append("no server")
        }
        return found.joined(separator: ", ")
    }

    /// Where the server listens: `SPEECHD_ADDRESS` (`unix_socket:PATH`), else the user's runtime folder.
    static func socketPath(environment: [String: String]) -> String? {
        if let address = environment["SPEECHD_ADDRESS"], address.hasPrefix("unix_socket:") {
            return String(address.dropFirst("unix_socket:".count))
        }
        return environment["XDG_RUNTIME_DIR"].map { "\($0)/speech-dispatcher/speechd.sock" }
    }

    static func executable(_ name: String, environment: [String: String]) -> String? {
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/\(name)"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }
}
