#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files under a folder whose extensions name publications, found recursively, with the
/// folders and files that could not be looked at — so that an unreadable folder is reported,
/// not silently skipped.
public struct PublicationFolderScan: Sendable {
    /// Publication files, sorted by path.
    public private(set) var files: [String] = []
    /// Paths that could not be read, with why.
    public private(set) var problems: [(path: String, reason: String)] = []

    /// How deep folders are followed (a loop of symbolic links ends there).
    public static let maxDepth = 32

    /// Scans `path`: the file itself when it is not a folder.
    public init(path: String, extensions: Set<String>) {
        switch FileKind.lookUp(path) {
        case .success(.directory):
            let base = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
            scan(folder: base, extensions: extensions, depth: 0)
            files.sort()
        case .success:
            files = [path]
        case .failure(let error):
            problems = [(path, error.description)]
        }
    }

    private mutating func scan(folder: String, extensions: Set<String>, depth: Int) {
        guard depth < Self.maxDepth else {
            problems.append((folder, "folders nested too deeply"))
            return
        }
        guard let directory = opendir(folder) else {
            problems.append((folder, FileAccessError(code: errno).description))
            return
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names.sorted() {
            let child = (folder == "/" ? "" : folder) + "/" + name
            switch FileKind.lookUp(child) {
            case .success(.directory):
                scan(folder: child, extensions: extensions, depth: depth + 1)
            case .success(.file):
                let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
                guard name.contains("."), extensions.contains(ext) else { continue }
                if access(child, R_OK) == 0 {
                    files.append(child)
                } else {
                    problems.append((child, FileAccessError(code: errno).description))
                }
            case .success(.other):
                continue
            case .failure(let error):
                // A dangling link is nothing to report; anything else is.
                if !error.isMissing { problems.append((child, error.description)) }
            }
        }
    }
}
