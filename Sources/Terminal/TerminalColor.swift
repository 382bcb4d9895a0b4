/// A terminal colour: the terminal's default, or an index of the 256-colour palette (0–15
/// are the 16 basic colours, whose look the terminal decides).
public enum TerminalColor: Sendable, Hashable {
    case `default`
    case indexed(UInt8)

    /// The 16 basic colour names, in palette order.
    public static let basicNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
                                    "bright-black", "bright-red", "bright-green", "bright-yellow",
                                    "bright-blue", "bright-magenta", "bright-cyan", "bright-white"]

    /// Parses `default`, a basic colour name (`red`, `bright-blue`, `grey`), a palette index
    /// (`"214"`) or `#rrggbb` (mapped to the nearest colour of the 256-colour palette).
    public init?(name: String) {
        let lowered = String(name.lowercased().map { $0 == "_" ? "-" : $0 })
        if lowered == "default" || lowered == "none" {
            self = .default
        } else if let index = Self.basicNames.firstIndex(of: lowered) {
            self = .indexed(UInt8(index))
        } else if lowered == "grey" || lowered == "gray" {
            self = .indexed(8)
        } else if let index = Int(lowered), (0...255).contains(index) {
            self = .indexed(UInt8(index))
        } else if lowered.hasPrefix("#"), lowered.count == 7, let value = Int(lowered.dropFirst(), radix: 16) {
            self = .indexed(Self.nearestIndex(red: (value >> 16) & 0xFF, green: (value >> 8) & 0xFF, blue: value & 0xFF))
        } else {
            return nil
        }
    }

    /// The same colour on a terminal of `colors` colours: indices above the palette are
    /// mapped to the nearest of the 16 (or 8) basic colours.
    public func reduced(to colors: Int) -> TerminalColor {
        guard case .indexed(let index) = self else { return self }
        if Int(index) < colors { return self }
        let (red, green, blue) = Self.rgb(of: index)
        var best = 0, bestDistance = Int.max
        for candidate in 0..<min(16, max(colors, 1)) {
            let (r, g, b) = Self.rgb(of: UInt8(candidate))
            let distance = (r - red) * (r - red) + (g - green) * (g - green) + (b - blue) * (b - blue)
            if distance < bestDistance { best = candidate; bestDistance = distance }
        }
        return .indexed(UInt8(best))
    }

    /// The usual RGB of an xterm palette index.
    static func rgb(of index: UInt8) -> (Int, Int, Int) {
        let basic: [(Int, Int, Int)] = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
                                        (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0),
                                        (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255)]
        let value = Int(index)
        if value < 16 { return basic[value] }
        if value < 232 {
            let cube = value - 16, steps = [0, 95, 135, 175, 215, 255]
            return (steps[cube / 36], steps[(cube / 6) % 6], steps[cube % 6])
        }
        let grey = 8 + (value - 232) * 10
        return (grey, grey, grey)
    }

    static func nearestIndex(red: Int, green: Int, blue: Int) -> UInt8 {
        var best = 16, bestDistance = Int.max
        for candidate in 16...255 {
            let (r, g, b) = rgb(of: UInt8(candidate))
            let distance = (r - red) * (r - red) + (g - green) * (g - green) + (b - blue) * (b - blue)
            if distance < bestDistance { best = candidate; bestDistance = distance }
        }
        return UInt8(best)
    }
}
