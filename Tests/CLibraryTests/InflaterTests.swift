import Foundation
import Testing
import TestSupport
import Zlib

/// Compresses `data` with Python's zlib: raw deflate, zlib or gzip.
private func compress(_ data: Data, _ wrapping: Inflater.Wrapping, level: Int = 9) throws -> [UInt8] {
    let wbits = switch wrapping {
    case .raw: -15
    case .zlib: 15
    case .gzip: 31
    }
    let program = """
    import sys, zlib
    c = zlib.compressobj(\(level), zlib.DEFLATED, \(wbits))
    sys.stdout.buffer.write(c.compress(sys.stdin.buffer.read()) + c.flush())
    """
    return Array(try Command.python(program, input: data))
}

private func inflateError(_ body: () throws -> [UInt8]) -> InflateError? {
    do {
        _ = try body()
        return nil
    } catch let error as InflateError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

@Suite struct InflaterTests {
    let text = compressibleText(lines: 5000)

    @Test(arguments: [Inflater.Wrapping.raw, .zlib, .gzip])
    func inflatesEachWrapping(wrapping: Inflater.Wrapping) throws {
        let compressed = try compress(text, wrapping)
        #expect(compressed.count < text.count / 3)
        #expect(try Inflater.inflate(compressed, wrapping: wrapping) == Array(text))
        #expect(try Inflater.inflate(compressed, wrapping: wrapping, sizeHint: text.count) == Array(text))
        // A size hint is only a hint.
        #expect(try Inflater.inflate(compressed, wrapping: wrapping, sizeHint: 3) == Array(text))
        #expect(try Inflater.inflate(compressed, wrapping: wrapping, sizeHint: 1 << 40) == Array(text))
        #expect(try Inflater.inflate(compressed[...], wrapping: wrapping) == Array(text)) // a slice
    }

    @Test func emptyAndIncompressibleContent() throws {
        #expect(try Inflater.inflate(try compress(Data(), .raw), wrapping: .raw) == [])
        let random = noise(count: 200_000)
        #expect(try Inflater.inflate(try compress(random, .zlib, level: 0), wrapping: .zlib) == Array(random))
    }

    @Test(arguments: [Inflater.Wrapping.raw, .zlib, .gzip])
    func truncatedStreamsAreTruncated(wrapping: Inflater.Wrapping) throws {
        let compressed = try compress(text, wrapping)
        for length in [0, 1, 2, compressed.count / 3, compressed.count / 2, compressed.count - 1] {
            let error = inflateError { try Inflater.inflate(compressed.prefix(length), wrapping: wrapping) }
            #expect(error == .truncated, "\(wrapping) cut at \(length)")
        }
    }

    @Test func corruptStreamsAreCorrupt() throws {
        // Block type 3 is reserved.
        let reserved = inflateError { try Inflater.inflate([0xFF, 0xFF, 0xFF, 0xFF], wrapping: .raw) }
        #expect({ if case .corrupt = reserved { true } else { false } }())
        // Checked wrappings catch damaged data with their checksums.
        for (wrapping, checksumOffset) in [(Inflater.Wrapping.zlib, 1), (.gzip, 6)] {
            var compressed = try compress(text, wrapping)
            compressed[compressed.count - checksumOffset] ^= 0x55 // inside the checksum trailer
            let error = inflateError { try Inflater.inflate(compressed, wrapping: wrapping) }
            #expect({ if case .corrupt = error { true } else { false } }(), "\(wrapping): \(String(describing: error))")
        }
        // A damaged byte anywhere in a checked stream is an error (corrupt, or truncated when
        // the damage hides the end of the stream), never silently different output.
        let zlib = try compress(text, .zlib)
        for position in stride(from: 2, to: zlib.count, by: max(1, zlib.count / 40)) {
            var damaged = zlib
            damaged[position] ^= 0x10
            #expect(inflateError { try Inflater.inflate(damaged, wrapping: .zlib) } != nil, "byte \(position)")
        }
        let notGzip = inflateError { try Inflater.inflate(Array("plain text, not compressed".utf8), wrapping: .gzip) }
        #expect({ if case .corrupt(let reason) = notGzip { !reason.isEmpty } else { false } }())
    }

    @Test func wrongWrappingIsAnError() throws {
        let zlib = try compress(text, .zlib), gzip = try compress(text, .gzip)
        #expect(inflateError { try Inflater.inflate(zlib, wrapping: .gzip) } != nil)
        #expect(inflateError { try Inflater.inflate(gzip, wrapping: .zlib) } != nil)
        #expect(inflateError { try Inflater.inflate(gzip, wrapping: .raw) } != nil)
    }

    @Test func outputIsBounded() throws {
        // 50 MB of zeros deflate to about 50 KB: a bomb for a 1 MB limit.
        let bomb = try compress(Data(count: 50_000_000), .raw)
        #expect(bomb.count < 100_000)
        #expect(inflateError { try Inflater.inflate(bomb, wrapping: .raw, maxOutput: 1 << 20) } == .tooLarge(1 << 20))
        // A lying size hint does not change the bound.
        #expect(inflateError { try Inflater.inflate(bomb, wrapping: .raw, sizeHint: 100, maxOutput: 1 << 20) } == .tooLarge(1 << 20))
        // Exactly at the limit is fine; one byte more is not.
        let exact = try compress(Data(count: 1 << 20), .zlib)
        #expect(try Inflater.inflate(exact, wrapping: .zlib, maxOutput: 1 << 20).count == 1 << 20)
        #expect(inflateError { try Inflater.inflate(exact, wrapping: .zlib, maxOutput: (1 << 20) - 1) } == .tooLarge((1 << 20) - 1))
    }

    @Test func errorsHaveMessages() {
        #expect(InflateError.truncated.description == "compressed data is truncated")
        #expect(InflateError.tooLarge(10).description.contains("10 bytes"))
        #expect(InflateError.corrupt("bad").description.contains("bad"))
    }
}
