import Bookshelf
import Foundation
import ProgressSync
import Synchronization
import Testing
import TestSupport

/// The service on a library: the account kept as its key, this device, our own place ignored
/// on pull, and the queue of places that could not be pushed.
@Suite struct ProgressSyncServiceTests {
    /// A clock the test moves.
    final class Clock: Sendable {
        let time = Mutex(1_800_000_000.0)
        var now: Double { time.withLock { $0 } }
        func advance(_ seconds: Double) { time.withLock { $0 += seconds } }
    }

    static func service(_ store: LibraryStore, clock: Clock = Clock()) -> ProgressSyncService {
        ProgressSyncService(store: store, now: { clock.now })
    }

    @Test func loginKeepsTheKeyAndADeviceIDThatStays() async throws {
        let server = try KosyncTestServer()
        defer { server.stop() }
        let store = try LibraryStore(path: ":memory:")
        let service = Self.service(store)
        try await service.register(server: server.baseURL, username: "reader", password: "secret", deviceName: "desk")
        let account = try #require(try service.account())
        #expect(account.key == KosyncClient.key(forPassword: "secret") && account.username == "reader")
        #expect(try store.syncSetting("kosync.userkey") == account.key)
        let device = try service.device()
        #expect(device.name == "desk" && device.id.count == 32)
        #expect(try service.device() == device)
        try service.logout()
        #expect(try service.account() == nil)
        // The id names this device, not the account: it outlives a logout.
        #expect(try service.device().id == device.id)
        // A wrong password is refused and nothing is kept.
        await #expect { try await service.login(server: server.baseURL, username: "reader", password: "wrong") } throws: { error in
            guard case ProgressSyncError.server(.unauthorized) = error else { return false }
            return true
        }
        #expect(try service.account() == nil)
    }

    @Test func ourOwnPlaceIsIgnoredAnotherDevicesIsNot() async throws {
        let server = try KosyncTestServer()
        defer { server.stop() }
        let store = try LibraryStore(path: ":memory:")
        let service = Self.service(store)
        try await service.register(server: server.baseURL, username: "reader", password: "secret")
        #expect(try await service.pull(document: "doc1") == PullOutcome.none)
        #expect(try await service.push(document: "doc1", progress: "12", percentage: 0.5) == .pushed(timestamp: try #require(
            (try server.place(user: "reader", document: "doc1"))?["timestamp"] as? Int)))
        guard case .own(let own) = try await service.pull(document: "doc1") else { Issue.record("not our own"); return }
        #expect(own.progress == "12")
        // The same name from another device (another id) is not ours.
        try server.control(["put": ["user": "reader", "document": "doc1", "progress": "30", "percentage": 0.75,
                                    "device": try service.device().name, "device_id": "OTHER", "timestamp": 1]])
        guard case .remote(let remote) = try await service.pull(document: "doc1") else { Issue.record("not remote"); return }
        #expect(remote.progress == "30" && remote.percentage == 0.75)
    }

    /// A server gone away queues the place (one per book, the newest), and the next exchange
    /// that succeeds sends it.
    @Test func theQueueWaitsForTheNextSuccess() async throws {
        let server = try KosyncTestServer()
        defer { server.stop() }
        let store = try LibraryStore(path: ":memory:")
        let service = Self.service(store)
        try await service.register(server: server.baseURL, username: "reader", password: "secret")
        try server.control(["drop": true])
        guard case .queued = try await service.push(document: "doc1", progress: "3", percentage: 0.1) else {
            Issue.record("not queued"); return
        }
        _ = try await service.push(document: "doc1", progress: "4", percentage: 0.2)
        _ = try await service.push(document: "doc2", progress: "9", percentage: 0.9)
        #expect(try service.queue().map(\.document) == ["doc1", "doc2"])
        #expect(try service.queue().first?.progress == "4")
        try server.control(["drop": false])
        #expect(try await service.pull(document: "doc3") == PullOutcome.none)
        #expect(try service.queue().isEmpty)
        #expect(try server.place(user: "reader", document: "doc1")?["progress"] as? String == "4")
        #expect(try server.place(user: "reader", document: "doc2")?["progress"] as? String == "9")
    }

    @Test func queuedPlacesAreKeptFourWeeks() async throws {
        let server = try KosyncTestServer()
        defer { server.stop() }
        let store = try LibraryStore(path: ":memory:")
        let clock = Clock()
        let service = Self.service(store, clock: clock)
        try await service.register(server: server.baseURL, username: "reader", password: "secret")
        try server.control(["drop": true])
        _ = try await service.push(document: "old", progress: "1", percentage: 0.1)
        clock.advance(27 * 86_400)
        _ = try await service.push(document: "recent", progress: "2", percentage: 0.2)
        #expect(try service.queue().count == 2)
        clock.advance(2 * 86_400)
        #expect(try service.queue().map(\.document) == ["recent"])
    }

    @Test func pushingWithoutAnAccountSaysSo() async throws {
        let service = Self.service(try LibraryStore(path: ":memory:"))
        await #expect { try await service.push(document: "d", progress: "1", percentage: 0) } throws: { error in
            guard case ProgressSyncError.notLoggedIn = error else { return false }
            return true
        }
    }
}
