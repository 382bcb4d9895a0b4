import Foundation
import Testing
import TestSupport

/// Files and folders the person may not read: said so ("permission denied"), never "no such
/// file", and never skipped in silence. Root reads everything, so `lectern` runs here as
/// `nobody` (util-linux's setpriv), from a copy of the binary any user can run.
@Suite(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
struct PermissionTests {
    let root = Fixtures.temporaryDirectory("permissions")

    init() throws {
        chmod(root, 0o777)
    }

    /// Runs `lectern arguments` as `nobody`, with state directories it may write.
    func runAsNobody(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let binary = root + "/lectern"
        if !FileManager.default.fileExists(atPath: binary) {
            try FileManager.default.copyItem(atPath: LecternProcess.executable, toPath: binary)
            chmod(binary, 0o755)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "env", "HOME=\(root)",
                             "XDG_DATA_HOME=\(root)/data", "XDG_CONFIG_HOME=\(root)/config", "XDG_CACHE_HOME=\(root)/cache",
                             "LECTERN_LCP_CRL_URL=none", binary] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    func copy(_ sample: String, to path: String, mode: mode_t = 0o644) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Fixtures.sample(sample), toPath: path)
        chmod(path, mode)
    }

    @Test func aFileInAFolderThatMayNotBeSearchedIsPermissionDenied() throws {
        try copy("epub/idpf-wasteland.epub", to: root + "/secret/book.epub")
        chmod(root + "/secret", 0o700)
        for command in [["info"], ["check"], ["info", "--json"]] {
            let result = try runAsNobody(command + [root + "/secret/book.epub"])
            #expect(result.status == 2, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("permission denied") && !result.stderr.contains("no such file"), "\(command): \(result.stderr)")
        }
        let missing = try runAsNobody(["info", root + "/nothing.epub"])
        #expect(missing.stderr.contains("no such file"), "\(missing.stderr)")
    }

    @Test func folderImportAndListingNameWhatTheyCannotRead() throws {
        let folder = root + "/books"
        try copy("epub/idpf-wasteland.epub", to: folder + "/readable.epub")
        try copy("cbz/swifttoolkit-test-comicinfo.cbz", to: folder + "/sub/comic.cbz")
        try copy("epub/idpf-moby-dick.epub", to: folder + "/locked.epub", mode: 0o000)
        try copy("epub/idpf-hefty-water.epub", to: folder + "/closed/inside.epub")
        chmod(folder, 0o755)
        chmod(folder + "/sub", 0o755)
        chmod(folder + "/closed", 0o700)

        let imported = try runAsNobody(["import", folder])
        #expect(imported.status == 1, "\(imported.stderr)")
        #expect(imported.stdout.contains("readable.epub") && imported.stdout.contains("comic.cbz"), "\(imported.stdout)")
        #expect(imported.stderr.contains(folder + "/locked.epub: cannot be read (permission denied); skipped"), "\(imported.stderr)")
        #expect(imported.stderr.contains(folder + "/closed: cannot be read (permission denied); skipped"), "\(imported.stderr)")

        let listed = try runAsNobody(["--json", folder])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stdout)")
        let errors = Dictionary(uniqueKeysWithValues: entries.compactMap { entry in
            (entry["error"] as? String).map { (entry["path"] as? String ?? "", $0) }
        })
        #expect(errors == [folder + "/locked.epub": "cannot read: permission denied", folder + "/closed": "cannot read: permission denied"])
        #expect(entries.count == 4)
    }

    /// `lectern open` says on one line why it cannot read the file, exit 2, before any screen
    /// (the tests have no terminal: a screen would be the "needs a terminal" error instead).
    @Test func openingAnUnreadableOrMissingFileIsAOneLineError() throws {
        try copy("epub/idpf-wasteland.epub", to: root + "/locked.epub", mode: 0o000)
        let locked = try runAsNobody(["open", root + "/locked.epub"])
        #expect(locked.status == 2)
        #expect(locked.stderr == "lectern: \(root)/locked.epub: permission denied\n")
        let missing = try runAsNobody(["open", root + "/nothing.epub"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "lectern: \(root)/nothing.epub: no such file\n")
    }
}
