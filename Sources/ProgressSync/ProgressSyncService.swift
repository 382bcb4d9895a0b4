import Bookshelf
import FoundationEssentials
import LibCrypto
import Shared
#if canImport(Glibc)
import Glibc
#endif

/// Why a sync step failed, by where: the server, the library database, or no account yet.
public enum ProgressSyncError: Error, Sendable {
    case server(KosyncError)
    case library(LibraryError)
    /// No `lectern sync login` (or `register`) yet.
    case notLoggedIn

    /// A sentence for a person.
    public var message: String {
        switch self {
        case .server(let error): error.message
        case .library(let error): "the library cannot be used: \(error.userMessage)"
        case .notLoggedIn: "not logged in to a sync server (lectern sync login URL --username NAME)"
        }
    }
}

/// What became of a place pushed.
public enum PushOutcome: Sendable, Equatable {
    /// The server stored it (at its timestamp, when it said).
    case pushed(timestamp: Int?)
    /// The server could not be reached or failed: the place waits in the queue for the next
    /// exchange that succeeds.
    case queued(reason: String)
}

/// What the server knows of a book's place.
public enum PullOutcome: Sendable, Equatable {
    /// No device has pushed a place for it.
    case none
    /// The last place is this device's own (nothing to move to).
    case own(KosyncPlace)
    /// Another device's place.
    case remote(KosyncPlace)
}

/// Progress sync for one library: the account and this device kept in the library database,
/// the protocol's client, and the queue of places not yet pushed (one per book, kept four
/// weeks, sent again after the next exchange that succeeds).
public struct ProgressSyncService: Sendable {
    /// How long a queued place is kept.
    public static let queueLifetime = 28 * 86_400.0

    enum Key {
        static let server = "kosync.server", username = "kosync.username", key = "kosync.userkey"
        static let deviceName = "kosync.device", deviceID = "kosync.device_id", matching = "kosync.matching"
    }

    private let store: LibraryStore
    private let makeClient: @Sendable (String) -> KosyncClient
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - makeClient: the client for a server URL (tests give their own HTTP client).
    ///   - now: the clock of the queue's four weeks.
    public init(store: LibraryStore, makeClient: @escaping @Sendable (String) -> KosyncClient = { KosyncClient(server: $0) },
                now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) {
        self.store = store
        self.makeClient = makeClient
        self.now = now
    }

    // MARK: - Settings

    /// The account logged in, nil when none.
    public func account() throws(ProgressSyncError) -> KosyncAccount? {
        try library { () throws(LibraryError) in
            guard let server = try store.syncSetting(Key.server), let username = try store.syncSetting(Key.username),
                  let key = try store.syncSetting(Key.key) else { return nil }
            return KosyncAccount(server: server, username: username, key: key)
        }
    }

    /// This device: its name (set at login, else `Lectern on HOST`) and its id, drawn at random
    /// the first time and kept, so that its own places are known on pull.
    public func device() throws(ProgressSyncError) -> KosyncDevice {
        try library { () throws(LibraryError) in
            let id = try store.syncSetting(Key.deviceID) { secureRandomBytes(16).hexString.uppercased() }
            return KosyncDevice(name: try store.syncSetting(Key.deviceName) ?? Self.defaultDeviceName, id: id)
        }
    }

    /// How books are named to the server (KOReader's setting; binary by default).
    public func matching() throws(ProgressSyncError) -> DocumentMatching {
        try library { () throws(LibraryError) in
            try store.syncSetting(Key.matching).flatMap(DocumentMatching.init(rawValue:)) ?? .binary
        }
    }

    /// `Lectern on HOST`.
    static var defaultDeviceName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "Lectern" }
        let host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return host.isEmpty ? "Lectern" : "Lectern on \(host)"
    }

    // MARK: - Account

    /// Checks the credentials with the server, then keeps the account (the key only).
    public func login(server: String, username: String, password: String, deviceName: String? = nil,
                      matching: DocumentMatching? = nil) async throws(ProgressSyncError) {
        let account = KosyncAccount(server: makeClient(server).server, username: username, key: KosyncClient.key(forPassword: password))
        do { try await makeClient(account.server).authorize(account) } catch { throw .server(error) }
        try keep(account, deviceName: deviceName, matching: matching)
    }

    /// Creates the user on the server, then keeps the account.
    public func register(server: String, username: String, password: String, deviceName: String? = nil,
                         matching: DocumentMatching? = nil) async throws(ProgressSyncError) {
        let account = KosyncAccount(server: makeClient(server).server, username: username, key: KosyncClient.key(forPassword: password))
        do { try await makeClient(account.server).register(username: username, key: account.key) } catch { throw .server(error) }
        try keep(account, deviceName: deviceName, matching: matching)
    }

    private func keep(_ account: KosyncAccount, deviceName: String?, matching: DocumentMatching?) throws(ProgressSyncError) {
        var values: [String: String?] = [Key.server: account.server, Key.username: account.username, Key.key: account.key]
        if let deviceName { values[Key.deviceName] = deviceName }
        if let matching { values[Key.matching] = matching.rawValue }
        try library { () throws(LibraryError) in try store.setSyncSettings(values) }
    }

    /// Forgets the account and its queue; the device's id stays (it names this device).
    public func logout() throws(ProgressSyncError) {
        try library { () throws(LibraryError) in
            try store.setSyncSettings([Key.server: nil, Key.username: nil, Key.key: nil])
            try store.clearSyncQueue()
        }
    }

    // MARK: - Places

    /// Pushes the book's place; a server unreachable or failing queues it instead. A refusal
    /// (wrong password, bad request) is thrown: retrying would not help.
    public func push(document: String, progress: String, percentage: Double) async throws(ProgressSyncError) -> PushOutcome {
        let account = try requireAccount()
        let place = KosyncPlace(document: document, progress: progress, percentage: percentage,
                                device: try device().name, deviceID: try device().id)
        let timestamp: Int?
        do {
            timestamp = try await makeClient(account.server).push(place, as: account)
        } catch {
            guard error.isTransient else { throw .server(error) }
            try library { () throws(LibraryError) in
                try store.queueSyncPlace(QueuedSyncPlace(document: document, progress: place.progress,
                                                         percentage: place.percentage, queuedAt: now()))
            }
            return .queued(reason: error.message)
        }
        // An older place of the book waiting in the queue must not follow this one.
        try library { () throws(LibraryError) in
            for queued in try store.queuedSyncPlaces(droppingBefore: now() - Self.queueLifetime) where queued.document == document {
                try store.removeQueuedSyncPlace(queued)
            }
        }
        _ = await flushQueue()
        return .pushed(timestamp: timestamp)
    }

    /// The book's last place on the server, told apart when it is this device's own, after
    /// sending the queue.
    public func pull(document: String) async throws(ProgressSyncError) -> PullOutcome {
        let account = try requireAccount()
        // The queue first: a place of ours that waited is newer than what the server has.
        _ = await flushQueue()
        let found: KosyncPlace?
        do { found = try await makeClient(account.server).pull(document: document, as: account) } catch { throw .server(error) }
        guard let found else { return .none }
        return found.isFrom(try device()) ? .own(found) : .remote(found)
    }

    /// Sends the queued places, oldest first, stopping at the first that cannot be sent;
    /// returns how many were sent and how many wait.
    public func flushQueue() async -> (sent: Int, waiting: Int) {
        guard let account = try? account(), let device = try? device(),
              let queued = try? store.queuedSyncPlaces(droppingBefore: now() - Self.queueLifetime) else { return (0, 0) }
        let client = makeClient(account.server)
        var sent = 0
        for entry in queued {
            let place = KosyncPlace(document: entry.document, progress: entry.progress, percentage: entry.percentage,
                                    device: device.name, deviceID: device.id)
            do {
                try await client.push(place, as: account)
            } catch {
                // Kept for later when the server is away or no longer takes the key (a
                // password changed elsewhere); dropped when refused for good (a document id
                // the server will not take).
                if error.isTransient { break }
                if case .unauthorized = error { break }
            }
            try? store.removeQueuedSyncPlace(entry)
            sent += 1
        }
        return (sent, queued.count - sent)
    }

    /// The places waiting to be pushed (after dropping those older than four weeks).
    public func queue() throws(ProgressSyncError) -> [QueuedSyncPlace] {
        try library { () throws(LibraryError) in try store.queuedSyncPlaces(droppingBefore: now() - Self.queueLifetime) }
    }

    private func requireAccount() throws(ProgressSyncError) -> KosyncAccount {
        guard let account = try account() else { throw .notLoggedIn }
        return account
    }

    private func library<T>(_ body: () throws(LibraryError) -> T) throws(ProgressSyncError) -> T {
        do { return try body() } catch { throw .library(error) }
    }
}
