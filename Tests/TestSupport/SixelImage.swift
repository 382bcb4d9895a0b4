/// Decodes a DEC sixel sequence into RGB pixels, so that tests can check what a sixel
/// terminal would draw (colour registers in RGB percent or HLS-less palettes, repeats,
/// carriage returns and line feeds — what libchafa writes).
public struct SixelImage {
    public private(set) var width = 0
    public private(set) var height = 0
    private var pixels: [Int: TerminalCells.Color] = [:]

    public init?(_ sequence: String) {
        guard let start = sequence.range(of: "q") else { return nil }
        var registers: [Int: TerminalCells.Color] = [:]
        var color = TerminalCells.Color(0, 0, 0)
        var x = 0, y = 0
        var scalars = Array(sequence[start.upperBound...].unicodeScalars)[...]
        func number() -> Int {
            var value = 0
            while let next = scalars.first, ("0"..."9").contains(next) { value = value * 10 + Int(next.value - 48); scalars.removeFirst() }
            return value
        }
        func numbers() -> [Int] {
            var values = [number()]
            while scalars.first == ";" { scalars.removeFirst(); values.append(number()) }
            return values
        }
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\u{1B}": scalars.removeAll()
            case "\"": _ = numbers()
            case "#":
                let values = numbers()
                if values.count >= 5, values[1] == 2 {
                    registers[values[0]] = TerminalCells.Color(values[2] * 255 / 100, values[3] * 255 / 100, values[4] * 255 / 100)
                }
                color = registers[values[0]] ?? color
            case "$": x = 0
            case "-": x = 0; y += 6
            case "!":
                let count = number()
                guard let char = scalars.popFirst() else { break }
                for _ in 0..<count { put(char, x: x, y: y, color: color); x += 1 }
            case "\u{3F}"..."\u{7E}":
                put(scalar, x: x, y: y, color: color); x += 1
            default: break
            }
        }
    }

    private mutating func put(_ char: Unicode.Scalar, x: Int, y: Int, color: TerminalCells.Color) {
        let bits = Int(char.value) - 0x3F
        width = max(width, x + 1)
        for bit in 0..<6 where bits & (1 << bit) != 0 {
            pixels[(y + bit) << 16 | x] = color
            height = max(height, y + bit + 1)
        }
    }

    /// The colour drawn at (x, y); nil where nothing was drawn (transparent).
    public func color(x: Int, y: Int) -> TerminalCells.Color? {
        pixels[y << 16 | x]
    }
}
