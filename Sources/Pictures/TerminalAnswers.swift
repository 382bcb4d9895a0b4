/// What a terminal answered to the queries for its graphics abilities: primary device
/// attributes (`CSI c`, whose parameter 4 means sixel), the kitty graphics query, and the cell
/// size in pixels (`CSI 16 t`).
public struct TerminalAnswers: Sendable, Equatable {
    public var supportsSixel: Bool
    public var supportsKitty: Bool
    public var cellSize: CellSize?

    public init(supportsSixel: Bool = false, supportsKitty: Bool = false, cellSize: CellSize? = nil) {
        self.supportsSixel = supportsSixel
        self.supportsKitty = supportsKitty
        self.cellSize = cellSize
    }

    /// The queries, in one write; the terminal answers them in order, the device attributes
    /// last (every terminal answers those), which marks the end of the answers.
    public static let query = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[16t\u{1B}[c"

    /// Reads the answers in `reply`; nil until the device attributes have arrived.
    public static func parse(_ reply: String) -> TerminalAnswers? {
        var answers = TerminalAnswers()
        var complete = false
        for sequence in reply.split(separator: "\u{1B}") {
            if sequence.hasPrefix("[?"), sequence.hasSuffix("c") {
                let parameters = sequence.dropFirst(2).dropLast().split(separator: ";").compactMap { Int($0) }
                answers.supportsSixel = parameters.dropFirst().contains(4)
                complete = true
            } else if sequence.hasPrefix("[6;"), sequence.hasSuffix("t") {
                let values = sequence.dropFirst(3).dropLast().split(separator: ";").compactMap { Int($0) }
                if values.count == 2, values[0] > 0, values[1] > 0 { answers.cellSize = CellSize(width: values[1], height: values[0]) }
            } else if sequence.hasPrefix("_Gi=31;OK") {
                answers.supportsKitty = true
            }
        }
        return complete ? answers : nil
    }
}
