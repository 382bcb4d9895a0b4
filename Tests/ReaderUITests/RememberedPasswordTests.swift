import Bookshelf
import Foundation
import Testing
import TestSupport

/// ZIP passwords are kept sealed: only the key file that sealed them opens them, an altered
/// seal opens nothing, and the key file is the owner's alone.
@Suite struct RememberedPasswordTests {
    @Test func sealedPasswordsOpenOnlyWithTheirKeyAndUnaltered() throws {
        let folder = Fixtures.temporaryDirectory("lectern-sealing")
        let sealing = PasswordSealing(keyPath: folder + "/passwords.key")
        let sealed = try #require(sealing.seal("pässword 1"))
        #expect(!sealed.contains("pässword"))
        #expect(sealing.open(sealed) == "pässword 1")
        // A fresh IV each time: the same password never seals the same way twice.
        #expect(sealing.seal("pässword 1") != sealed)
        let mode = try FileManager.default.attributesOfItem(atPath: sealing.keyPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // Another key (another machine, a lost key file) opens nothing.
        #expect(PasswordSealing(keyPath: folder + "/other.key").open(sealed) == nil)
        // One changed digit of the ciphertext: refused by the HMAC.
        var altered = Array(sealed)
        altered[40] = altered[40] == "0" ? "1" : "0"
        #expect(sealing.open(String(altered)) == nil)
    }

    @Test func theLibraryRemembersAndForgetsByContentIdentity() throws {
        let folder = Fixtures.temporaryDirectory("lectern-remembered")
        let store = try LibraryStore(path: folder + "/library.sqlite")
        let passwords = RememberedPasswords(store: store, sealing: PasswordSealing(keyPath: folder + "/passwords.key"))
        #expect(try passwords.password(identity: "sha256:abc") == nil)
        #expect(try passwords.remember("secret", identity: "sha256:abc"))
        #expect(try passwords.password(identity: "sha256:abc") == "secret")
        #expect(try passwords.password(identity: "sha256:other") == nil)
        let database = try Data(contentsOf: URL(fileURLWithPath: folder + "/library.sqlite"))
        #expect(database.range(of: Data("secret".utf8)) == nil)
        #expect(try passwords.forget(identity: "sha256:abc"))
        #expect(try passwords.password(identity: "sha256:abc") == nil)
        #expect(try !passwords.forget(identity: "sha256:abc"))
    }
}
