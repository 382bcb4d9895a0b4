import CLecternBuildInfo

/// What `lectern --version` and `lectern doctor` say the program is.
enum BuildInfo {
    static let version = "0.1.0"

    /// The commit the binary was built from ("unknown" for a build outside `make`).
    static var commit: String { String(cString: lectern_build_commit()) }

    /// `0.1.0 (commit 1a2b3c4d5e6f)`.
    static var versionLine: String { "\(version) (commit \(commit))" }
}
