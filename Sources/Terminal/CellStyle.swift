/// How cells are drawn: colours and attributes. A terminal without colours (or with
/// `NO_COLOR` set) draws the attributes only.
public struct CellStyle: Sendable, Hashable {
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let bold = Attributes(rawValue: 1 << 0)
        public static let dim = Attributes(rawValue: 1 << 1)
        public static let italic = Attributes(rawValue: 1 << 2)
        public static let underline = Attributes(rawValue: 1 << 3)
        public static let reverse = Attributes(rawValue: 1 << 4)
    }

    public var foreground: TerminalColor
    public var background: TerminalColor
    public var attributes: Attributes

    public init(foreground: TerminalColor = .default, background: TerminalColor = .default, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    public static let plain = CellStyle()

    /// This style with more attributes.
    public func adding(_ extra: Attributes) -> CellStyle {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }
}
