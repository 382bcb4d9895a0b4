import CLecternZlib

/// DEFLATE decompression with a bound on the output, so a small hostile input cannot expand
/// into gigabytes (a "zip bomb").
public enum Inflater {
    /// The format around the DEFLATE data.
    public enum Wrapping: Sendable {
        /// RFC 1951 raw DEFLATE, no header: LCP resources with `Compression Method="8"`.
        case raw
        /// RFC 1950 zlib stream.
        case zlib
        /// RFC 1952 gzip stream (HTTP `Content-Encoding: gzip`).
        case gzip
    }

    /// Decompresses `input` entirely.
    ///
    /// - Parameters:
    ///   - sizeHint: expected output size, used to size the buffer (never trusted as a bound).
    ///   - maxOutput: output larger than this fails with ``InflateError/tooLarge(_:)``.
    public static func inflate(
        _ input: some Collection<UInt8>, wrapping: Wrapping = .raw,
        sizeHint: Int? = nil, maxOutput: Int = 512 << 20
    ) throws(InflateError) -> [UInt8] {
        let source: [UInt8] = (input as? [UInt8]) ?? Array(input)
        var stream = z_stream()
        let windowBits: Int32 = switch wrapping {
        case .raw: -15
        case .zlib: 15
        case .gzip: 15 + 16
        }
        guard lectern_inflateInit2(&stream, windowBits) == Z_OK else { throw .corrupt("zlib init failed") }
        defer { inflateEnd(&stream) }

        let chunk = 64 * 1024
        var output: [UInt8] = []
        // The hint comes from the file (e.g. LCP's OriginalLength): trust it for a modest
        // reservation only, so that a lying hint cannot make every call reserve `maxOutput`.
        output.reserveCapacity(min(max(sizeHint ?? source.count * 3, 256), maxOutput, 16 << 20))
        var buffer = [UInt8](repeating: 0, count: chunk)
        var finished = false
        var result: Int32 = Z_OK
        source.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while !finished {
                let produced: Int = buffer.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(chunk)
                    result = CLecternZlib.inflate(&stream, Z_NO_FLUSH)
                    return chunk - Int(stream.avail_out)
                }
                if output.count + produced > maxOutput { result = Z_MEM_ERROR; return }
                output.append(contentsOf: buffer[0..<produced])
                switch result {
                case Z_STREAM_END: finished = true
                case Z_OK: if produced == 0 && stream.avail_in == 0 { return }
                case Z_BUF_ERROR: if stream.avail_in == 0 { return }
                default: return
                }
            }
        }
        if finished { return output }
        switch result {
        case Z_MEM_ERROR: throw .tooLarge(maxOutput)
        case Z_OK, Z_BUF_ERROR: throw .truncated
        default:
            let message = stream.msg.map { String(cString: $0) } ?? "invalid deflate data"
            throw .corrupt(message)
        }
    }
}

/// Why DEFLATE data could not be decompressed.
public enum InflateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stream ended before its final block.
    case truncated
    /// The data is not valid DEFLATE.
    case corrupt(String)
    /// The output would exceed the given limit.
    case tooLarge(Int)

    public var description: String {
        switch self {
        case .truncated: "compressed data is truncated"
        case .corrupt(let reason): "compressed data is corrupt (\(reason))"
        case .tooLarge(let limit): "compressed data expands beyond \(limit) bytes"
        }
    }
}
