/// A picture encoded for the terminal, ready to be written at a cell position.
public struct TerminalPicture: Sendable, Equatable {
    public let `protocol`: PictureProtocol
    /// The cells it covers.
    public let columns: Int
    public let rows: Int
    /// For ``PictureProtocol/symbols``, one string per row (characters with their colour
    /// sequences, ending with the attributes reset); otherwise one string, the whole image
    /// sequence, written with the cursor at the top-left cell.
    public let rowsText: [String]

    public init(protocol: PictureProtocol, columns: Int, rows: Int, rowsText: [String]) {
        self.protocol = `protocol`
        self.columns = columns
        self.rows = rows
        self.rowsText = rowsText
    }

    /// The bytes that draw it with its top-left corner at 0-based `row`, `column`: each row
    /// placed with a cursor move, so nothing depends on where the cursor was.
    public func placed(row: Int, column: Int) -> String {
        var text = ""
        for (index, line) in rowsText.enumerated() {
            text += "\u{1B}[\(row + index + 1);\(column + 1)H" + line
        }
        return text
    }

    /// The bytes that print it on a stream (`lectern render`): rows one after the other.
    public var printed: String {
        rowsText.joined(separator: "\n") + "\n"
    }
}
