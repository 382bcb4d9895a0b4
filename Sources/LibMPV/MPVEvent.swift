import CLecternMPV

/// One event of an mpv core, copied out of mpv's memory (which the next wait reuses).
public enum MPVEvent: Sendable, Equatable {
    /// Why a file stopped playing.
    public enum EndReason: Sendable, Equatable {
        case endOfFile, stopped, quit, error, redirect, other
    }

    /// The value of an observed property (nil: unavailable, e.g. no file loaded).
    public enum Value: Sendable, Equatable {
        case double(Double)
        case flag(Bool)
        case string(String)
        case unavailable
    }

    case shutdown
    case log(level: String, prefix: String, text: String)
    case startFile(entryID: Int64)
    case fileLoaded
    /// Playback (re)started after a load or a seek: the decoder produced audio at the new position.
    case playbackRestart
    case endFile(reason: EndReason, error: Int32, entryID: Int64)
    case propertyChange(tag: UInt64, name: String, value: Value)
    case reply(tag: UInt64, error: Int32)
    case other(id: Int32)

    /// Copies `event`; nil for `MPV_EVENT_NONE` (nothing pending).
    init?(_ event: mpv_event) {
        switch event.event_id {
        case MPV_EVENT_NONE:
            return nil
        case MPV_EVENT_SHUTDOWN:
            self = .shutdown
        case MPV_EVENT_LOG_MESSAGE:
            guard let message = event.data?.assumingMemoryBound(to: mpv_event_log_message.self).pointee else { return nil }
            self = .log(level: Self.string(message.level), prefix: Self.string(message.prefix), text: Self.string(message.text))
        case MPV_EVENT_START_FILE:
            let id = event.data?.assumingMemoryBound(to: mpv_event_start_file.self).pointee.playlist_entry_id ?? 0
            self = .startFile(entryID: id)
        case MPV_EVENT_FILE_LOADED:
            self = .fileLoaded
        case MPV_EVENT_PLAYBACK_RESTART:
            self = .playbackRestart
        case MPV_EVENT_END_FILE:
            guard let end = event.data?.assumingMemoryBound(to: mpv_event_end_file.self).pointee else { return nil }
            let reason: EndReason = switch end.reason {
            case MPV_END_FILE_REASON_EOF: .endOfFile
            case MPV_END_FILE_REASON_STOP: .stopped
            case MPV_END_FILE_REASON_QUIT: .quit
            case MPV_END_FILE_REASON_ERROR: .error
            case MPV_END_FILE_REASON_REDIRECT: .redirect
            default: .other
            }
            self = .endFile(reason: reason, error: end.error, entryID: end.playlist_entry_id)
        case MPV_EVENT_PROPERTY_CHANGE:
            guard let property = event.data?.assumingMemoryBound(to: mpv_event_property.self).pointee else { return nil }
            let value: Value
            switch property.format {
            case MPV_FORMAT_DOUBLE:
                value = property.data.map { .double($0.assumingMemoryBound(to: Double.self).pointee) } ?? .unavailable
            case MPV_FORMAT_FLAG:
                value = property.data.map { .flag($0.assumingMemoryBound(to: Int32.self).pointee != 0) } ?? .unavailable
            case MPV_FORMAT_STRING:
                value = property.data.flatMap { $0.assumingMemoryBound(to: UnsafePointer<CChar>?.self).pointee }
                    .map { .string(String(cString: $0)) } ?? .unavailable
            default:
                value = .unavailable
            }
            self = .propertyChange(tag: event.reply_userdata, name: Self.string(property.name), value: value)
        case MPV_EVENT_COMMAND_REPLY, MPV_EVENT_SET_PROPERTY_REPLY, MPV_EVENT_GET_PROPERTY_REPLY:
            self = .reply(tag: event.reply_userdata, error: event.error)
        default:
            self = .other(id: Int32(bitPattern: event.event_id.rawValue))
        }
    }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }
}
