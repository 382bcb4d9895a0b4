import Foundation
import Testing
import TestSupport

/// `lectern sync folder` and `lectern sync now` (#32): two libraries (two XDG homes) keeping
/// their annotations in step through one folder, as two devices syncing it would.
@Suite struct FolderSyncCommandTests {
    /// A device: its own home and its own copy of the wasteland sample.
    struct Device {
        let lectern = LecternProcess()
        let book: String

        init(_ name: String) throws {
            book = Fixtures.temporaryDirectory("folder-sync-\(name)") + "/wasteland.epub"
            try FileManager.default.copyItem(atPath: Fixtures.sample("epub/idpf-wasteland.epub"), toPath: book)
        }

        func run(_ arguments: [String]) throws -> LecternProcess.Result {
            try lectern.run(arguments)
        }

        func highlight(_ quote: String, note: String? = nil) throws -> String {
            let made = try run(["annotate", book, "--quote", quote] + (note.map { ["--note", $0] } ?? []))
            #expect(made.status == 0, "\(made.stderr)")
            return made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func annotations() throws -> [String: [String: Any]] {
            let listed = try run(["annotations", book, "--json"])
            #expect(listed.status == 0, "\(listed.stderr)")
            let items = try #require(listed.json as? [[String: Any]], "\(listed.stdout)")
            return Dictionary(uniqueKeysWithValues: items.compactMap { item in (item["id"] as? String).map { ($0, item) } })
        }

        func use(_ folder: String) throws {
            let set = try run(["sync", "folder", folder])
            #expect(set.status == 0, "\(set.stderr)")
        }

        @discardableResult
        func syncNow(_ arguments: [String] = [], status: Int32 = 0) throws -> LecternProcess.Result {
            let synced = try run(["sync", "now"] + arguments)
            #expect(synced.status == status, "\(synced.stdout)\(synced.stderr)")
            return synced
        }
    }

    func files(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }

    @Test func highlightsMadeOnEachEndEqualAndADeletionReachesTheOther() throws {
        let folder = Fixtures.temporaryDirectory("folder-sync")
        let laptop = try Device("laptop"), server = try Device("server")
        let april = try laptop.highlight("April is the cruellest month", note: "the opening")
        let city = try server.highlight("Unreal City")
        try laptop.use(folder)
        try server.use(folder)
        try laptop.syncNow()
        try server.syncNow([server.book])
        try laptop.syncNow()
        let onLaptop = try laptop.annotations(), onServer = try server.annotations()
        #expect(Set(onLaptop.keys) == [april, city])
        #expect(Set(onServer.keys) == [april, city])
        #expect(onServer[april]?["note"] as? String == "the opening")
        #expect(onServer[april]?["quote"] as? String == "April is the cruellest month")
        #expect(onLaptop[city]?["quote"] as? String == "Unreal City")
        // One file for the book, named alike on both devices, nothing else left in the folder.
        let names = try files(folder)
        #expect(names.count == 1 && names[0].hasSuffix(".annotation"), "\(names)")

        let removed = try server.run(["annotations", "remove", server.book, april])
        #expect(removed.status == 0, "\(removed.stderr)")
        try server.syncNow()
        try laptop.syncNow()
        #expect(Set(try laptop.annotations().keys) == [city])
        // Synced again, the deletion stays.
        try server.syncNow()
        #expect(Set(try server.annotations().keys) == [city])
    }

    @Test func conflictCopiesAreMergedThenRemoved() throws {
        let folder = Fixtures.temporaryDirectory("folder-sync-conflicts")
        let elsewhere = Fixtures.temporaryDirectory("folder-sync-elsewhere")
        let laptop = try Device("laptop"), server = try Device("server"), tablet = try Device("tablet")
        let april = try laptop.highlight("April is the cruellest month")
        try laptop.use(folder)
        try laptop.syncNow()
        let name = try #require(try files(folder).first)
        let stem = String(name.dropLast(".annotation".count))
        // What two other devices wrote at the same time, as their sync tools keep it.
        let city = try server.highlight("Unreal City")
        try server.use(elsewhere)
        try server.syncNow()
        try FileManager.default.moveItem(atPath: elsewhere + "/" + name,
                                         toPath: folder + "/" + stem + ".sync-conflict-20260102-030405-ABCDEFG.annotation")
        let shantih = try tablet.highlight("Shantih")
        try tablet.use(elsewhere)
        try tablet.syncNow()
        try FileManager.default.moveItem(atPath: elsewhere + "/" + name,
                                         toPath: folder + "/" + stem + " (conflicted copy 2026-01-02 030405).annotation")

        let synced = try laptop.syncNow()
        #expect(synced.stdout.contains("2 conflict copy(ies) merged and removed"), "\(synced.stdout)")
        #expect(try files(folder) == [name])
        #expect(Set(try laptop.annotations().keys) == [april, city, shantih])
        // The merged file carries all three to a device that reads it.
        try server.use(folder)
        try server.syncNow()
        #expect(Set(try server.annotations().keys) == [april, city, shantih])
    }

    @Test func aMalformedFileIsReportedAndLeftAndNothingIsLost() throws {
        let folder = Fixtures.temporaryDirectory("folder-sync-malformed")
        let laptop = try Device("laptop")
        let april = try laptop.highlight("April is the cruellest month")
        try laptop.use(folder)
        try laptop.syncNow()
        let name = try #require(try files(folder).first)
        let path = folder + "/" + name
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let truncated = whole.prefix(whole.count / 2)
        try truncated.write(to: URL(fileURLWithPath: path))
        let broken = folder + "/" + String(name.dropLast(".annotation".count)) + ".sync-conflict-20260102-030405-XYZ.annotation"
        try Data("not json at all".utf8).write(to: URL(fileURLWithPath: broken))
        let city = try laptop.highlight("Unreal City")

        let synced = try laptop.syncNow(status: 1)
        #expect(synced.stderr.contains(name) && synced.stderr.contains("not valid JSON"), "\(synced.stderr)")
        #expect(synced.stderr.contains("sync-conflict-20260102-030405-XYZ"), "\(synced.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == truncated)
        #expect(try Data(contentsOf: URL(fileURLWithPath: broken)) == Data("not json at all".utf8))
        #expect(Set(try laptop.annotations().keys) == [april, city])
        // Once the file is whole again, the sync goes through and writes both.
        try whole.write(to: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: broken)
        try laptop.syncNow()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != whole)
        #expect(Set(try laptop.annotations().keys) == [april, city])
    }

    @Test func withoutAFolderSyncNowSaysSo() throws {
        let laptop = try Device("laptop")
        let synced = try laptop.syncNow(status: 2)
        #expect(synced.stderr.contains("no sync folder is set"), "\(synced.stderr)")
        let missing = try laptop.run(["sync", "folder", "/nonexistent/folder"])
        #expect(missing.status == 2)
    }
}
