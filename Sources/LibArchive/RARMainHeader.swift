import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What the first header of a RAR archive says that libarchive 3.6 does not: whether the
/// archive is solid (each file compressed in one stream with those before it, so that passing
/// over an entry decodes it all the same), and whether a RAR5 archive's headers are encrypted.
enum RARMainHeader {
    /// The first bytes of the file at `path`.
    static func head(of path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = fread(&bytes, 1, bytes.count, file)
        return Array(bytes[0..<count])
    }

    /// Whether the RAR5 archive starts with an archive encryption header (`rar -hp`: names and
    /// all encrypted), which libarchive 3.6 misreads as damage.
    static func isHeaderEncrypted(head: [UInt8]) -> Bool {
        guard head.starts(with: [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x01, 0x00]) else { return false }
        var reader = VintReader(bytes: head, offset: 8 + 4)
        return reader.next() != nil && reader.next() == 4
    }

    static func isSolid(head: [UInt8]) -> Bool {
        let rar4: [UInt8] = [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x00]
        let rar5: [UInt8] = [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x01, 0x00]
        if head.starts(with: rar5) {
            // CRC32, then variable-length integers: size, type (1: main), flags, [extra size],
            // [data size], archive flags (0x0004: solid).
            var reader = VintReader(bytes: head, offset: 8 + 4)
            guard reader.next() != nil, reader.next() == 1, let flags = reader.next() else { return false }
            if flags & 0x1 != 0 { _ = reader.next() }
            if flags & 0x2 != 0 { _ = reader.next() }
            return (reader.next() ?? 0) & 0x4 != 0
        }
        if head.starts(with: rar4) {
            // The main header: CRC (2 bytes), type 0x73, flags (little-endian; 0x0008: solid).
            guard head.count >= 12, head[9] == 0x73 else { return false }
            return (UInt16(head[10]) | UInt16(head[11]) << 8) & 0x0008 != 0
        }
        return false
    }

    /// RAR5's variable-length integers: seven bits a byte, low bits first.
    private struct VintReader {
        let bytes: [UInt8]
        var offset: Int

        mutating func next() -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while offset < bytes.count, shift < 64 {
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
    }
}
