import CLecternMPV

/// Bytes mpv reads through a custom protocol (`mpv_stream_cb_add_ro`): the player demuxes
/// straight from memory, so decrypted audio never touches the disk.
///
/// Called on mpv's demuxer thread, one call at a time per stream; may block (mpv waits).
public protocol MPVStreamSource: AnyObject, Sendable {
    /// The total size in bytes, nil when unknown (then mpv cannot seek by bytes).
    var size: UInt64? { get }

    /// Copies up to `buffer.count` bytes at `offset` into `buffer`; returns how many (0 at the
    /// end), or nil on a read error.
    func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Int?

    /// The stream is closed: release what it holds.
    func close()
}

/// Opens the sources of a protocol: given the URI (`protocol://rest`), the source, or nil when
/// there is nothing there.
public typealias MPVStreamOpener = @Sendable (String) -> (any MPVStreamSource)?

/// The opener registered for a protocol (kept alive by its ``MPVCore``).
final class MPVStreamRegistration: Sendable {
    let opener: MPVStreamOpener
    init(opener: @escaping MPVStreamOpener) { self.opener = opener }
}

/// One open stream: its source and read position. mpv calls one stream's callbacks from one
/// thread at a time, so the position needs no lock.
final class MPVOpenStream: @unchecked Sendable {
    let source: any MPVStreamSource
    var position: UInt64 = 0
    init(source: any MPVStreamSource) { self.source = source }
}

/// The C callbacks of the stream API (plain functions: they cannot capture).
enum MPVStreamCallbacks {
    static let open: mpv_stream_cb_open_ro_fn = { userData, uri, info in
        guard let userData, let uri, let info else { return Int32(MPV_ERROR_LOADING_FAILED.rawValue) }
        let registration = Unmanaged<MPVStreamRegistration>.fromOpaque(userData).takeUnretainedValue()
        guard let source = registration.opener(String(cString: uri)) else { return Int32(MPV_ERROR_LOADING_FAILED.rawValue) }
        info.pointee.cookie = Unmanaged.passRetained(MPVOpenStream(source: source)).toOpaque()
        info.pointee.read_fn = read
        info.pointee.seek_fn = seek
        info.pointee.size_fn = size
        info.pointee.close_fn = close
        return 0
    }

    static let read: mpv_stream_cb_read_fn = { cookie, buffer, count in
        guard let cookie, let buffer else { return -1 }
        let stream = Unmanaged<MPVOpenStream>.fromOpaque(cookie).takeUnretainedValue()
        let wanted = Int(min(count, UInt64(Int32.max)))
        guard let got = stream.source.read(at: stream.position, into: UnsafeMutableRawBufferPointer(start: buffer, count: wanted)) else {
            return -1
        }
        stream.position += UInt64(got)
        return Int64(got)
    }

    static let seek: mpv_stream_cb_seek_fn = { cookie, offset in
        guard let cookie, offset >= 0 else { return Int64(MPV_ERROR_GENERIC.rawValue) }
        let stream = Unmanaged<MPVOpenStream>.fromOpaque(cookie).takeUnretainedValue()
        stream.position = UInt64(offset)
        return offset
    }

    static let size: mpv_stream_cb_size_fn = { cookie in
        guard let cookie else { return Int64(MPV_ERROR_UNSUPPORTED.rawValue) }
        let stream = Unmanaged<MPVOpenStream>.fromOpaque(cookie).takeUnretainedValue()
        return stream.source.size.map { Int64($0) } ?? Int64(MPV_ERROR_UNSUPPORTED.rawValue)
    }

    static let close: mpv_stream_cb_close_fn = { cookie in
        guard let cookie else { return }
        let stream = Unmanaged<MPVOpenStream>.fromOpaque(cookie).takeRetainedValue()
        stream.source.close()
    }
}
