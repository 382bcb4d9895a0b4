/// Unicode scalar values (the first scalar of each cluster of a text) in the narrowest
/// storage that holds them, read back as `UInt32`s.
///
/// A chapter's text is most of a laid-out book's memory, and four bytes a cluster is four
/// times what Latin text needs. Values are kept one byte each while the text uses at most
/// 128 distinct non-ASCII scalars (ASCII as itself, the others as an index into a small
/// palette: accented letters, curly quotes and dashes of European text, a whole alphabet
/// such as Cyrillic or Greek), two bytes each for other text of the Basic Multilingual Plane
/// (CJK), four bytes only when a scalar beyond it (most emoji) appears beside more than 127
/// other non-ASCII scalars.
///
/// A text is built four bytes a value (appending is then a plain array append) and packed
/// once finished (``pack()``); appending to a packed text a value its storage cannot hold
/// widens it, once, for the whole text.
struct PackedScalars: RandomAccessCollection, Sendable, CustomStringConvertible {
    /// Bytes per value in use: 1 (`narrow`), 2 (`halves`) or 4 (`words`); only that array is used.
    private(set) var bytesPerValue = 4
    /// One byte a value: below 0x80 the value itself, else `palette[code - 0x80]`.
    private var narrow: [UInt8] = []
    /// The non-ASCII values of `narrow`, at most 128.
    private var palette: [UInt32] = []
    private var halves: [UInt16] = []
    private var words: [UInt32] = []

    init() {}

    /// `values`, packed.
    init(_ values: some Sequence<UInt32>) {
        words = Array(values)
        pack()
    }

    var startIndex: Int { 0 }
    var endIndex: Int {
        switch bytesPerValue {
        case 1: narrow.count
        case 2: halves.count
        default: words.count
        }
    }

    @inline(__always)
    subscript(position: Int) -> UInt32 {
        switch bytesPerValue {
        case 1:
            let code = narrow[position]
            return code < 0x80 ? UInt32(code) : palette[Int(code &- 0x80)]
        case 2:
            return UInt32(halves[position])
        default:
            return words[position]
        }
    }

    var description: String { Array(self).description }

    /// Whether the values are `values`, in order (whatever the storage).
    static func == (lhs: PackedScalars, rhs: [UInt32]) -> Bool {
        lhs.elementsEqual(rhs)
    }

    @inline(__always)
    mutating func append(_ value: UInt32) {
        // The common cases (a text being built, ASCII in packed Latin text) inline, the rest out of line.
        if bytesPerValue == 4 {
            words.append(value)
        } else if bytesPerValue == 1, value < 0x80 {
            narrow.append(UInt8(truncatingIfNeeded: value))
        } else {
            appendWidening(value)
        }
    }

    private mutating func appendWidening(_ value: UInt32) {
        switch bytesPerValue {
        case 1:
            if value < 0x80 {
                narrow.append(UInt8(truncatingIfNeeded: value))
            } else if let code = paletteCode(for: value) {
                narrow.append(code)
            } else {
                widen(toHold: value)
                appendWidening(value)
            }
        case 2:
            if value <= 0xFFFF {
                halves.append(UInt16(truncatingIfNeeded: value))
            } else {
                widen(toHold: value)
                appendWidening(value)
            }
        default:
            words.append(value)
        }
    }

    mutating func append(contentsOf other: PackedScalars) {
        reserveCapacity(count + other.count)
        for value in other { append(value) }
    }

    mutating func removeLast() {
        switch bytesPerValue {
        case 1: narrow.removeLast()
        case 2: halves.removeLast()
        default: words.removeLast()
        }
    }

    mutating func removeFirst() {
        switch bytesPerValue {
        case 1: narrow.removeFirst()
        case 2: halves.removeFirst()
        default: words.removeFirst()
        }
    }

    mutating func reserveCapacity(_ capacity: Int) {
        switch bytesPerValue {
        case 1: narrow.reserveCapacity(capacity)
        case 2: halves.reserveCapacity(capacity)
        default: words.reserveCapacity(capacity)
        }
    }

    /// Moves the values to the narrowest storage that holds them, without spare capacity (a
    /// text built by appending has up to twice the room it uses, and a finished paragraph is
    /// kept as long as its chapter).
    mutating func pack() {
        guard bytesPerValue == 4 else {
            narrow = narrow.exactCopy()
            halves = halves.exactCopy()
            return
        }
        if let (codes, palette) = Self.paletteCodes(words) {
            narrow = codes
            self.palette = palette
            bytesPerValue = 1
        } else if !words.contains(where: { $0 > 0xFFFF }) {
            halves = [UInt16](unsafeUninitializedCapacity: words.count) { buffer, initialized in
                for (index, value) in words.enumerated() { buffer[index] = UInt16(truncatingIfNeeded: value) }
                initialized = words.count
            }
            bytesPerValue = 2
        } else {
            words = words.exactCopy()
            return
        }
        words = []
    }

    /// One-byte codes for `values` and their palette, or nil when there are more than 128
    /// distinct non-ASCII values.
    private static func paletteCodes(_ values: [UInt32]) -> (codes: [UInt8], palette: [UInt32])? {
        if !values.contains(where: { $0 >= 0x80 }) { return (values.map { UInt8(truncatingIfNeeded: $0) }, []) }
        var palette: [UInt32] = []
        // Open addressing from a value to its palette index (-1: free): a linear search of
        // the palette for every Cyrillic or Greek letter took longer than the conversion.
        var slots = [Int16](repeating: -1, count: 512)
        var codes = [UInt8](repeating: 0, count: values.count)
        for (index, value) in values.enumerated() {
            if value < 0x80 {
                codes[index] = UInt8(truncatingIfNeeded: value)
                continue
            }
            var slot = Int(truncatingIfNeeded: (value &* 2_654_435_761) >> 7) & 511
            while true {
                let entry = slots[slot]
                if entry < 0 {
                    guard palette.count < 0x80 else { return nil }
                    slots[slot] = Int16(palette.count)
                    codes[index] = UInt8(0x80 + palette.count)
                    palette.append(value)
                    break
                }
                if palette[Int(entry)] == value {
                    codes[index] = UInt8(0x80 + Int(entry))
                    break
                }
                slot = (slot + 1) & 511
            }
        }
        return (codes, palette)
    }

    /// The one-byte code of `value` (at least 0x80), adding it to the palette when there is room.
    private mutating func paletteCode(for value: UInt32) -> UInt8? {
        if let index = palette.firstIndex(of: value) { return UInt8(0x80 + index) }
        guard palette.count < 0x80 else { return nil }
        palette.append(value)
        return UInt8(0x80 + palette.count - 1)
    }

    /// Moves the values to storage wide enough for them and `value`.
    private mutating func widen(toHold value: UInt32) {
        let values = Array(self)
        let largest = Swift.max(value, values.max() ?? 0)
        if largest <= 0xFFFF {
            halves = values.map { UInt16(truncatingIfNeeded: $0) }
            bytesPerValue = 2
        } else {
            words = values
            bytesPerValue = 4
        }
        narrow = []
        palette = []
    }
}

extension Array {
    /// A copy whose capacity is its count (`Array(self)` would share the buffer, spare room included).
    func exactCopy() -> [Element] {
        guard capacity > count else { return self }
        return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = withUnsafeBufferPointer { source in buffer.initialize(fromContentsOf: source) }
        }
    }
}
