import CLecternSpeechd
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One connection to a speech-dispatcher server (libspeechd, loaded on first use), in its
/// threaded mode: the server's notifications (a message begins, ends, reaches an index mark)
/// arrive on libspeechd's own thread and are handed to the handler given at opening.
final class SpeechdConnection: @unchecked Sendable {
    // @unchecked: the pointer is used under `lock`, or by libspeechd's own thread safety
    // (its calls take the connection's SSIP mutex).

    /// What the server says about a message.
    enum Notice: Sendable, Equatable {
        case begin, end, cancel
        case mark(String)
    }

    typealias Handler = @Sendable (_ message: Int, _ notice: Notice) -> Void

    /// Whether libspeechd could be loaded.
    static let isAvailable: Bool = loadLock.withLock { _ in lectern_speechd_load() != 0 }
    private static let loadLock = Mutex(())
    /// The handlers by client id: libspeechd's callbacks carry no context pointer.
    private static let handlers = Mutex<[Int: Handler]>([:])

    private let connection: UnsafeMutablePointer<SPDConnection>
    private let address: UnsafeMutablePointer<SPDConnectionAddress>?
    private let clientID: Int
    private let lock = Mutex(false)

    /// Connects to the server at `SPEECHD_ADDRESS` (`unix_socket:PATH`) of `environment`, else
    /// the user's; never starts one (a server that does not answer means: use espeak-ng).
    init(environment: [String: String], handler: @escaping Handler) throws(SpeechError) {
        guard Self.isAvailable else {
            throw .engineMissing(detail: "libspeechd.so.2 (speech-dispatcher's client library) is not installed")
        }
        let api = lectern_speechd()!.pointee
        if let value = environment["SPEECHD_ADDRESS"], value.hasPrefix("unix_socket:") {
            let made = UnsafeMutablePointer<SPDConnectionAddress>.allocate(capacity: 1)
            made.initialize(to: SPDConnectionAddress(method: SPD_METHOD_UNIX_SOCKET,
                                                     unix_socket_name: strdup(String(value.dropFirst("unix_socket:".count))),
                                                     inet_socket_host: nil, inet_socket_port: 0, dbus_bus: nil))
            address = made
        } else {
            address = nil
        }
        var error: UnsafeMutablePointer<CChar>?
        guard let opened = api.open2("lectern", "read-aloud", nil, SPD_MODE_THREADED, address, 0, &error) else {
            let reason = error.map { String(cString: $0) } ?? "no server answers"
            free(error)
            Self.release(address)
            throw .engineFailed("speech-dispatcher: \(reason)")
        }
        connection = opened
        clientID = Int(api.get_client_id(opened))
        Self.handlers.withLock { $0[clientID] = handler }
        opened.pointee.callback_begin = { message, client, _ in SpeechdConnection.deliver(client, message, .begin) }
        opened.pointee.callback_end = { message, client, _ in SpeechdConnection.deliver(client, message, .end) }
        opened.pointee.callback_cancel = { message, client, _ in SpeechdConnection.deliver(client, message, .cancel) }
        opened.pointee.callback_im = { message, client, _, mark in
            SpeechdConnection.deliver(client, message, .mark(mark.map { String(cString: $0) } ?? ""))
        }
        for notification in [SPD_BEGIN, SPD_END, SPD_CANCEL, SPD_INDEX_MARKS] {
            _ = api.set_notification_on(opened, notification)
        }
        _ = api.set_data_mode(opened, SPD_DATA_SSML)
    }

    private static func deliver(_ client: Int, _ message: Int, _ notice: Notice) {
        handlers.withLock { $0[client] }?(message, notice)
    }

    private static func release(_ address: UnsafeMutablePointer<SPDConnectionAddress>?) {
        guard let address else { return }
        free(address.pointee.unix_socket_name)
        address.deinitialize(count: 1)
        address.deallocate()
    }

    /// Sends SSML to be said after what was sent before; the message's id, nil when refused.
    func say(ssml: String, language: String?, rate: Int) -> Int? {
        let api = lectern_speechd()!.pointee
        return lock.withLock { closed -> Int? in
            guard !closed else { return nil }
            if let language { _ = api.set_language(connection, language) }
            _ = api.set_voice_rate(connection, Int32(rate))
            // Priority `message`, not `text`: the server cancels a text message when the next
            // one comes, and the next sentence is sent while this one is said.
            let id = api.say(connection, SPD_MESSAGE, ssml)
            return id < 0 ? nil : Int(id)
        }
    }

    func setPaused(_ paused: Bool) {
        let api = lectern_speechd()!.pointee
        lock.withLock { closed in
            guard !closed else { return }
            _ = paused ? api.pause(connection) : api.resume(connection)
        }
    }

    /// Stops what is said and closes the connection; no notice is handed over after.
    func close() {
        let api = lectern_speechd()!.pointee
        let wasOpen = lock.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        guard wasOpen else { return }
        Self.handlers.withLock { _ = $0.removeValue(forKey: clientID) }
        _ = api.cancel(connection)
        api.close(connection)
        Self.release(address)
    }

    deinit { close() }
}
