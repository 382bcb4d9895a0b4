import CLecternMPV
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// libmpv, loaded on first use.
public enum MPV {
    /// Whether libmpv could be loaded (it is opened on the first question).
    public static var isAvailable: Bool { loaded }
    private static let loaded: Bool = lectern_mpv_load() != 0

    /// mpv's text for an error code.
    static func errorText(_ code: Int32) -> String {
        guard isAvailable, let text = lectern_mpv_error_string(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// The client API version of the loaded library (major << 16 | minor), 0 without it.
    public static var clientAPIVersion: UInt {
        isAvailable ? lectern_mpv_client_api_version() : 0
    }
}

/// One mpv core: a thin layer over `mpv_handle` (libmpv's client API is thread-safe, hence
/// `@unchecked Sendable`). Commands and property writes are asynchronous — they never wait on
/// the player — and report through ``MPVEvent/reply(tag:error:)``.
public final class MPVCore: @unchecked Sendable {
    private let handle: OpaquePointer
    private let destroyed = Mutex(false)
    private let registrations = Mutex<[MPVStreamRegistration]>([])
    private let wakeupBox = Mutex<WakeupBox?>(nil)

    /// Creates and initialises a core with `options` (set before initialisation, in order).
    public init(options: [(name: String, value: String)]) throws(MPVError) {
        guard MPV.isAvailable else { throw .unavailable }
        guard let handle = lectern_mpv_create() else {
            throw .failed(call: "mpv_create", code: -1, message: "could not create a player")
        }
        self.handle = handle
        for option in options {
            let code = lectern_mpv_set_option_string(handle, option.name, option.value)
            if code < 0 {
                lectern_mpv_terminate_destroy(handle)
                throw .failed(call: "option \(option.name)=\(option.value)", code: code, message: MPVError.text(code))
            }
        }
        let code = lectern_mpv_initialize(handle)
        if code < 0 {
            lectern_mpv_terminate_destroy(handle)
            throw .failed(call: "mpv_initialize", code: code, message: MPVError.text(code))
        }
    }

    deinit { destroy() }

    /// Stops playback and frees the core (waits for mpv's threads; streams are closed).
    public func destroy() {
        let first = destroyed.withLock { done -> Bool in
            guard !done else { return false }
            done = true
            // Under the lock: no call of another thread is using the handle while it is freed.
            lectern_mpv_set_wakeup_callback(handle, nil, nil)
            lectern_mpv_terminate_destroy(handle)
            return true
        }
        guard first else { return }
        wakeupBox.withLock { $0 = nil }
        registrations.withLock { $0.removeAll() }
    }

    /// Runs `call` with the handle, or returns `fallback` once the core is destroyed. The lock
    /// is held during the call, so ``destroy()`` cannot free the handle while it is in use (every
    /// call made here returns at once: none waits on the player).
    private func ifLive<T: Sendable>(_ fallback: T, _ call: (OpaquePointer) -> T) -> T {
        destroyed.withLock { done in done ? fallback : call(handle) }
    }

    /// Runs `arguments` (e.g. `["seek", "12", "absolute+exact"]`) without waiting.
    public func command(_ arguments: [String], tag: UInt64 = 0) throws(MPVError) {
        let code = ifLive(0) { handle in Self.withCStrings(arguments) { lectern_mpv_command_async(handle, tag, $0) } }
        try MPVError.check(code, arguments.first ?? "command")
    }

    /// Sets a property without waiting.
    public func set(_ name: String, _ value: Double, tag: UInt64 = 0) {
        _ = ifLive(0) { lectern_mpv_set_property_double_async($0, tag, name, value) }
    }

    /// Sets a flag property without waiting.
    public func set(_ name: String, _ value: Bool, tag: UInt64 = 0) {
        _ = ifLive(0) { lectern_mpv_set_property_flag_async($0, tag, name, value ? 1 : 0) }
    }

    /// Sets a property (or an option at run time) from its text without waiting.
    public func set(_ name: String, _ value: String, tag: UInt64 = 0) {
        _ = ifLive(0) { lectern_mpv_set_property_string_async($0, tag, name, value) }
    }

    /// Sets a property (or an option at run time) from its text, waiting until it is applied —
    /// for values a following asynchronous command depends on (asynchronous calls may be
    /// reordered).
    public func setNow(_ name: String, _ value: String) throws(MPVError) {
        try MPVError.check(ifLive(0) { lectern_mpv_set_property_string($0, name, value) }, "set \(name)")
    }

    /// A numeric property now, nil when unavailable.
    public func double(_ name: String) -> Double? {
        ifLive(nil) { handle in
            var value = 0.0
            return lectern_mpv_get_property_double(handle, name, &value) >= 0 ? value : nil
        }
    }

    /// A property as text now, nil when unavailable.
    public func string(_ name: String) -> String? {
        ifLive(nil) { handle in
            guard let text = lectern_mpv_get_property_string(handle, name) else { return nil }
            defer { lectern_mpv_free(text) }
            return String(cString: text)
        }
    }

    /// Reports changes of a property as ``MPVEvent/propertyChange(tag:name:value:)``.
    public func observe(_ name: String, as format: ObservedFormat, tag: UInt64 = 0) throws(MPVError) {
        let mpvFormat: mpv_format = switch format {
        case .double: MPV_FORMAT_DOUBLE
        case .flag: MPV_FORMAT_FLAG
        case .string: MPV_FORMAT_STRING
        }
        try MPVError.check(ifLive(0) { lectern_mpv_observe_property($0, tag, name, mpvFormat) }, "observe \(name)")
    }

    /// How an observed property is delivered.
    public enum ObservedFormat: Sendable { case double, flag, string }

    /// Delivers mpv's log messages at `level` and above (`error`, `warn`, `info`…) as events.
    public func requestLogMessages(level: String) {
        _ = ifLive(0) { lectern_mpv_request_log_messages($0, level) }
    }

    /// The next event, waiting up to `timeout` seconds (0: only what is pending); nil when
    /// none arrived. A wait holds the core's lock, delaying ``destroy()`` by as much.
    public func nextEvent(timeout: Double = 0) -> MPVEvent? {
        ifLive(nil) { handle in
            guard let event = lectern_mpv_wait_event(handle, timeout) else { return nil }
            return MPVEvent(event.pointee)
        }
    }

    /// Calls `wakeup` (on one of mpv's threads) whenever events become pending. It must not
    /// call mpv: it should only schedule ``nextEvent(timeout:)`` calls elsewhere.
    public func setWakeup(_ wakeup: @escaping @Sendable () -> Void) {
        let box = WakeupBox(wakeup)
        wakeupBox.withLock { $0 = box }
        _ = ifLive(0) { handle in
            lectern_mpv_set_wakeup_callback(handle, { context in
                guard let context else { return }
                Unmanaged<WakeupBox>.fromOpaque(context).takeUnretainedValue().wakeup()
            }, Unmanaged.passUnretained(box).toOpaque())
            return 0
        }
    }

    /// Serves `protocolName://…` URIs from the sources `opener` returns.
    public func registerStreams(protocol protocolName: String, opener: @escaping MPVStreamOpener) throws(MPVError) {
        let registration = MPVStreamRegistration(opener: opener)
        registrations.withLock { $0.append(registration) }
        let code = ifLive(0) { handle in
            lectern_mpv_stream_cb_add_ro(handle, protocolName, Unmanaged.passUnretained(registration).toOpaque(),
                                         MPVStreamCallbacks.open)
        }
        try MPVError.check(code, "register protocol \(protocolName)")
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
        pointers.append(nil)
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}

private final class WakeupBox: Sendable {
    let wakeup: @Sendable () -> Void
    init(_ wakeup: @escaping @Sendable () -> Void) { self.wakeup = wakeup }
}
