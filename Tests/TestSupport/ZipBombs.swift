import Foundation

/// Zip bombs for tests, written byte by byte (no tool makes them): many entries that inflate
/// one shared deflate stream, or many copies of a highly compressed one.
public enum ZipBombs {
    /// `count` entries whose central-directory records all point at one local header and its
    /// deflate stream of `size` zero bytes ("full overlap", after D. Fifield). With `mimetype`,
    /// a stored `mimetype` entry comes first so that the file sniffs as `mimetype` says.
    public static func overlapping(count: Int, size: Int, mimetype: String? = nil, to path: String) throws {
        try Command.python(program, ["overlap", String(count), String(size), mimetype ?? "", path])
    }

    /// `count` separate entries, each its own copy of a deflate stream of `size` zero bytes.
    public static func repeated(count: Int, size: Int, mimetype: String? = nil, to path: String) throws {
        try Command.python(program, ["repeat", String(count), String(size), mimetype ?? "", path])
    }

    private static let program = #"""
import struct, sys, zlib
mode, count, size, mimetype, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
chunk = bytes(1 << 20)
data = b''.join(compressor.compress(chunk[:min(len(chunk), size - done)]) for done in range(0, size, len(chunk)))
data += compressor.flush()
crc = 0
for done in range(0, size, len(chunk)):
    crc = zlib.crc32(chunk[:min(len(chunk), size - done)], crc)
out, central = bytearray(), bytearray()
def local(name, method, crc, csize, usize, payload):
    offset = len(out)
    out.extend(struct.pack('<IHHHHHIIIHH', 0x04034b50, 20, 0, method, 0, 0, crc, csize, usize, len(name), 0) + name + payload)
    return offset
def record(name, method, crc, csize, usize, offset):
    central.extend(struct.pack('<IHHHHHHIIIHHHHHII', 0x02014b50, 20, 20, 0, method, 0, 0, crc, csize, usize,
                               len(name), 0, 0, 0, 0, 0, offset) + name)
entries = 0
if mimetype:
    payload = mimetype.encode()
    c = zlib.crc32(payload)
    record(b'mimetype', 0, c, len(payload), len(payload), local(b'mimetype', 0, c, len(payload), len(payload), payload))
    entries += 1
shared = None
for i in range(count):
    name = b'OEBPS/bomb%04d.xhtml' % i
    if mode == 'overlap':
        if shared is None:
            shared = local(name, 8, crc, len(data), size, data)
        offset = shared
    else:
        offset = local(name, 8, crc, len(data), size, data)
    record(name, 8, crc, len(data), size, offset)
    entries += 1
start = len(out)
out.extend(central)
out.extend(struct.pack('<IHHHHIIH', 0x06054b50, 0, 0, entries, entries, len(central), start, 0))
open(path, 'wb').write(out)
"""#
}
