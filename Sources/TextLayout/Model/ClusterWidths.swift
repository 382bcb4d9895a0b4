import TerminalCells

/// The cell width of every cluster of a text, kept as the exceptions to the width of the
/// cluster's first scalar (``natural(_:)``).
///
/// Nearly every cluster is as wide as its first scalar, so storing a width per cluster (a
/// byte each) would spend memory on what the cell-width table already says. The exceptions
/// are multi-scalar clusters wider than their lead (emoji sequences, Indic conjuncts) and the
/// few widths the layout sets itself (a lam drawn by its lam-alef ligature). A text where
/// they are frequent (a Devanagari paragraph) keeps one byte a cluster instead, so it never
/// costs more than that.
struct ClusterWidths: Sendable {
    /// Widths that differ from their lead's, by cluster index.
    private var exceptions: [Int: UInt8] = [:]
    /// Every width, when exceptions are frequent; empty otherwise.
    private var dense: [UInt8] = []

    init() {}

    /// The widths `widths` of clusters whose first scalars are `leads`.
    init(_ widths: [UInt8], leads: PackedScalars) {
        for index in widths.indices where widths[index] != Self.natural(leads[index]) {
            exceptions[index] = widths[index]
        }
        // A dictionary entry costs tens of bytes; past one cluster in 16 a byte each is less.
        if exceptions.count > widths.count / 16 {
            dense = widths.exactCopy()
            exceptions = [:]
        }
    }

    /// The width of a cluster that is its lead scalar alone.
    @inline(__always)
    static func natural(_ lead: UInt32) -> UInt8 {
        if lead >= 0x20, lead < 0x7F { return 1 }
        if lead < 0x10000 { return basicPlaneWidths[Int(lead)] }
        guard let scalar = Unicode.Scalar(lead) else { return 1 }
        return UInt8(truncatingIfNeeded: CellWidth.of(scalar))
    }

    /// ``CellWidth`` of every scalar of the Basic Multilingual Plane, looked up once (64 KB):
    /// widths are read on every wrap and draw, and a binary search of the cell-width table
    /// for each Cyrillic or CJK character was most of the time of laying such text out.
    private static let basicPlaneWidths: [UInt8] = (0..<0x10000).map { value in
        Unicode.Scalar(UInt32(value)).map { UInt8(truncatingIfNeeded: CellWidth.of($0)) } ?? 1
    }

    /// The width of cluster `index`, whose first scalar is `lead`.
    @inline(__always)
    func width(at index: Int, lead: UInt32) -> UInt8 {
        if !dense.isEmpty { return dense[index] }
        if !exceptions.isEmpty, let width = exceptions[index] { return width }
        return Self.natural(lead)
    }

    /// Sets the width of cluster `index`, whose first scalar is `lead`.
    mutating func set(_ width: UInt8, at index: Int, lead: UInt32) {
        if !dense.isEmpty {
            if index == dense.count { dense.append(width) } else { dense[index] = width }
        } else {
            exceptions[index] = width == Self.natural(lead) ? nil : width
        }
    }

    /// Appends the widths of `other` (clusters with `otherLeads`) after the first `count` clusters.
    mutating func append(contentsOf other: ClusterWidths, otherLeads: PackedScalars, after count: Int) {
        for index in otherLeads.indices {
            set(other.width(at: index, lead: otherLeads[index]), at: count + index, lead: otherLeads[index])
        }
    }
}

/// The cell widths of a text as a collection (for comparing and printing whole texts; the
/// layout reads ``InlineText/width(at:)``).
struct ClusterWidthsView: RandomAccessCollection, CustomStringConvertible {
    let leads: PackedScalars
    let widths: ClusterWidths

    var startIndex: Int { 0 }
    var endIndex: Int { leads.count }
    subscript(position: Int) -> UInt8 { widths.width(at: position, lead: leads[position]) }
    var description: String { Array(self).description }
}
