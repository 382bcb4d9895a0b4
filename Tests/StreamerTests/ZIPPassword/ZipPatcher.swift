import Foundation
import Testing

/// Edits the headers of a generated ZIP archive in place, to make the hostile or unusual
/// variants no tool writes (wrong sizes, AE-1 entries, names in a legacy code page, a corrupt
/// authentication code). Only what the tests need: no ZIP64, no comments.
struct ZipPatcher {
    var bytes: [UInt8]

    /// One central-directory record and its local header.
    struct Record {
        let name: [UInt8]
        let central: Int
        let local: Int

        var nameString: String { String(decoding: name, as: UTF8.self) }
    }

    init(path: String) throws {
        bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    func write(to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
    func u32(_ offset: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) } }
    mutating func set16(_ offset: Int, _ value: Int) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8(value >> 8 & 0xFF)
    }
    mutating func set32(_ offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(value >> (8 * index) & 0xFF) }
    }

    /// The central directory, from the end-of-central-directory record.
    var records: [Record] {
        guard let end = (0...(bytes.count - 22)).reversed().first(where: { bytes[$0..<$0 + 4] == [0x50, 0x4B, 0x05, 0x06] }) else { return [] }
        var offset = Int(u32(end + 16))
        var records: [Record] = []
        for _ in 0..<u16(end + 10) {
            let nameLength = u16(offset + 28), extraLength = u16(offset + 30), commentLength = u16(offset + 32)
            records.append(Record(name: Array(bytes[(offset + 46)..<(offset + 46 + nameLength)]), central: offset, local: Int(u32(offset + 42))))
            offset += 46 + nameLength + extraLength + commentLength
        }
        return records
    }

    func record(_ name: String) throws -> Record {
        try #require(records.first { $0.nameString == name }, "no entry \(name)")
    }

    /// Where the entry's stored bytes (encryption header included) are.
    func dataRange(of record: Record) -> Range<Int> {
        let start = record.local + 30 + u16(record.local + 26) + u16(record.local + 28)
        return start..<(start + Int(u32(record.central + 20)))
    }

    /// Whether the local header defers CRC and sizes to a data descriptor (bit 3); they are
    /// then left alone there.
    func hasDataDescriptor(_ record: Record) -> Bool { u16(record.local + 6) & 0x0008 != 0 }

    mutating func setUncompressedSize(_ name: String, _ size: UInt32) throws {
        let record = try record(name)
        set32(record.central + 24, size)
        if !hasDataDescriptor(record) { set32(record.local + 22, size) }
    }

    mutating func setCompressedSize(_ name: String, _ size: UInt32) throws {
        let record = try record(name)
        set32(record.central + 20, size)
        if !hasDataDescriptor(record) { set32(record.local + 18, size) }
    }

    mutating func setCRC(_ name: String, _ crc: UInt32) throws {
        let record = try record(name)
        set32(record.central + 16, crc)
        if !hasDataDescriptor(record) { set32(record.local + 14, crc) }
    }

    /// Clears bit 11 (names in UTF-8) of the general-purpose flags.
    mutating func clearUTF8Flag(_ name: String) throws {
        let record = try record(name)
        set16(record.central + 8, u16(record.central + 8) & ~0x0800)
        set16(record.local + 6, u16(record.local + 6) & ~0x0800)
    }

    /// Replaces the name's bytes (same length) in both headers.
    mutating func rename(_ name: String, to newName: [UInt8]) throws {
        let record = try record(name)
        #expect(newName.count == record.name.count)
        bytes.replaceSubrange((record.central + 46)..<(record.central + 46 + newName.count), with: newName)
        bytes.replaceSubrange((record.local + 30)..<(record.local + 30 + newName.count), with: newName)
    }

    /// Edits the WinZip AES extra field (0x9901: version, "AE", strength, method) of the
    /// entry's central and/or local header.
    mutating func patchAESExtraField(_ name: String, central: Bool = true, local: Bool = true,
                                     version: Int? = nil, strength: UInt8? = nil) throws {
        let record = try record(name)
        var fields: [Int] = []
        if central { fields.append(try aesField(start: record.central + 46 + u16(record.central + 28), length: u16(record.central + 30))) }
        if local { fields.append(try aesField(start: record.local + 30 + u16(record.local + 26), length: u16(record.local + 28))) }
        for field in fields {
            if let version { set16(field + 4, version) }
            if let strength { bytes[field + 8] = strength }
        }
    }

    private func aesField(start: Int, length: Int) throws -> Int {
        var offset = start
        while offset + 4 <= start + length {
            if u16(offset) == 0x9901 { return offset }
            offset += 4 + u16(offset + 2)
        }
        throw ZipPatchError.noAESExtraField
    }

    /// XORs one stored byte of the entry, `fromEnd` bytes before its end (the last 10 bytes of
    /// a WinZip AES entry are its authentication code).
    mutating func flipStoredByte(_ name: String, fromEnd: Int) throws {
        let range = dataRange(of: try record(name))
        bytes[range.upperBound - 1 - fromEnd] ^= 0x5A
    }

    /// XORs one stored byte of the entry at `offset` from its start.
    mutating func flipStoredByte(_ name: String, at offset: Int) throws {
        let range = dataRange(of: try record(name))
        bytes[range.lowerBound + offset] ^= 0x5A
    }
}

enum ZipPatchError: Error { case noAESExtraField }
