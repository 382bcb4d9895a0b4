import Foundation

/// Paths of test fixtures and scratch space, for every test target.
public enum Fixtures {
    /// The repository root, found from this file's location.
    public static let repositoryRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// `Tests/Fixtures`.
    public static let directory = repositoryRoot + "/Tests/Fixtures"

    /// A file of the shared sample corpus copied in `Tests/Fixtures/Samples`, e.g.
    /// `sample("epub/idpf-wasteland.epub")`.
    public static func sample(_ relativePath: String) -> String {
        directory + "/Samples/" + relativePath
    }

    /// A file under `Tests/Fixtures`.
    public static func path(_ relativePath: String) -> String {
        directory + "/" + relativePath
    }

    /// A new empty directory under the system temporary directory.
    public static func temporaryDirectory(_ label: String = "lectern-test") -> String {
        let path = NSTemporaryDirectory() + "/\(label)-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The bytes of a file.
    public static func bytes(_ path: String) -> Data {
        FileManager.default.contents(atPath: path) ?? Data()
    }
}
