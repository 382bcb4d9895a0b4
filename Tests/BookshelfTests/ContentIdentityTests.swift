import Bookshelf
import Foundation
import Testing
import TestSupport

/// A publication's identity follows its content, not its path: the reading position and
/// bookmarks of a file renamed or moved are found again.
@Suite struct ContentIdentityTests {
    let folder = Fixtures.temporaryDirectory("content-identity")

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The hex SHA-256 computed by coreutils, independently of the code under test.
    func sha256sum(_ path: String) throws -> String {
        let output = String(decoding: try Command.run(["/usr/bin/sha256sum", path]), as: UTF8.self)
        return String(output.prefix(64))
    }

    @Test func withoutIdentifierTheFileHashIsTheIdentity() throws {
        let book = try write(Array(Fixtures.bytes(Fixtures.sample("idpf-wasteland.epub"))), "a.epub")
        let identity = ContentIdentity.of(path: book, identifier: nil)
        #expect(identity == "sha256:" + (try sha256sum(book)))
        // An empty identifier is no identifier.
        #expect(ContentIdentity.of(path: book, identifier: "") == identity)
    }

    @Test func sameContentSameIdentityDifferentContentDifferentIdentity() throws {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 >> 2) }
        let first = try write(bytes, "first.epub")
        let copy = try write(bytes, "copy.epub")
        var changed = bytes
        changed[150_000] ^= 1
        let other = try write(changed, "other.epub")
        #expect(ContentIdentity.of(path: first, identifier: nil) == ContentIdentity.of(path: copy, identifier: nil))
        #expect(ContentIdentity.of(path: first, identifier: nil) != ContentIdentity.of(path: other, identifier: nil))
        // With an identifier: the identifier and the size.
        #expect(ContentIdentity.of(path: first, identifier: "urn:isbn:1") == "id:urn:isbn:1#200000")
        #expect(ContentIdentity.of(path: first, identifier: "urn:isbn:1") == ContentIdentity.of(path: copy, identifier: "urn:isbn:1"))
        #expect(ContentIdentity.of(path: first, identifier: "urn:isbn:1") != ContentIdentity.of(path: first, identifier: "urn:isbn:2"))
        let longer = try write(bytes + [0], "longer.epub")
        #expect(ContentIdentity.of(path: longer, identifier: "urn:isbn:1") != ContentIdentity.of(path: first, identifier: "urn:isbn:1"))
    }

    @Test func aRenamedOrMovedFileKeepsItsIdentity() throws {
        let path = try write(Array(Fixtures.bytes(Fixtures.sample("idpf-childrens-literature.epub"))), "book.epub")
        let byHash = ContentIdentity.of(path: path, identifier: nil)
        let byIdentifier = ContentIdentity.of(path: path, identifier: "urn:uuid:children")
        let renamed = folder + "/Renamed Book.epub"
        try FileManager.default.moveItem(atPath: path, toPath: renamed)
        #expect(ContentIdentity.of(path: renamed, identifier: nil) == byHash)
        try FileManager.default.createDirectory(atPath: folder + "/elsewhere/deeper", withIntermediateDirectories: true)
        let moved = folder + "/elsewhere/deeper/book.epub"
        try FileManager.default.moveItem(atPath: renamed, toPath: moved)
        #expect(ContentIdentity.of(path: moved, identifier: nil) == byHash)
        #expect(ContentIdentity.of(path: moved, identifier: "urn:uuid:children") == byIdentifier)
    }

    /// A folder (exploded publication) without identifier is known by its path; with one, by
    /// the identifier.
    @Test func aFolderFallsBackToItsPath() throws {
        try FileManager.default.createDirectory(atPath: folder + "/exploded", withIntermediateDirectories: true)
        #expect(ContentIdentity.of(path: folder + "/exploded", identifier: nil) == "path:" + folder + "/exploded")
        #expect(ContentIdentity.of(path: folder + "/exploded", identifier: "urn:x") == "id:urn:x#dir")
    }

    @Test func theCacheNameIsTheHexSHA256OfTheIdentity() throws {
        // FIPS 180-2's test vector.
        #expect(ContentIdentity.cacheName(of: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        for identity in ["id:urn:isbn:9780000000000#123456", "path:/books/a\u{0}b/../c", "sha256:" + String(repeating: "0", count: 64), "id:é中😀#dir"] {
            let name = ContentIdentity.cacheName(of: identity)
            #expect(name.count == 64)
            #expect(name.allSatisfy { "0123456789abcdef".contains($0) }, "\(name)")
            let file = try write(Array(identity.utf8), "identity.txt")
            #expect(name == (try sha256sum(file)), "\(identity)")
        }
        #expect(ContentIdentity.cacheName(of: "id:a#1") != ContentIdentity.cacheName(of: "id:a#2"))
    }
}
