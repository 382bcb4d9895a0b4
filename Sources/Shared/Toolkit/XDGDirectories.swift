import FoundationEssentials

/// Where Lectern keeps its state, following the XDG base directories (DESIGN.md §4), so that
/// tests isolate themselves by setting the three variables.
public enum XDGDirectories {
    /// `$XDG_DATA_HOME/lectern` (default `~/.local/share/lectern`): library, licenses, positions.
    public static var data: String { directory("XDG_DATA_HOME", fallback: ".local/share") }
    /// `$XDG_CONFIG_HOME/lectern` (default `~/.config/lectern`): `config.toml`.
    public static var config: String { directory("XDG_CONFIG_HOME", fallback: ".config") }
    /// `$XDG_CACHE_HOME/lectern` (default `~/.cache/lectern`): HTTP, CRL and JWKS caches.
    public static var cache: String { directory("XDG_CACHE_HOME", fallback: ".cache") }

    private static func directory(_ variable: String, fallback: String) -> String {
        let environment = ProcessInfo.processInfo.environment
        // The specification says relative values are invalid and must be ignored.
        if let value = environment[variable], value.hasPrefix("/") { return value + "/lectern" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return home + "/" + fallback + "/lectern"
    }

    /// Creates `path` and its parents with mode 0700 when missing; false when it cannot be (the
    /// caller's own write in it then fails, and says so).
    @discardableResult
    public static func ensure(_ path: String) -> Bool {
        (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                  attributes: [.posixPermissions: 0o700])) != nil
    }
}
