import CLecternPoppler

/// The permission flags of a PDF's standard security handler, as poppler reports them.
///
/// poppler already folds the owner password in: a document opened with its owner password
/// reports print and copy allowed whatever its `/P` entry says (`XRef::okToPrint` and
/// `okToCopy` return true when the owner password matched). poppler enforces none of them.
public struct PDFPermissions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public static let print = PDFPermissions(rawValue: UInt32(LECTERN_POPPLER_PERMISSIONS_OK_TO_PRINT))
    public static let modify = PDFPermissions(rawValue: UInt32(LECTERN_POPPLER_PERMISSIONS_OK_TO_MODIFY))
    /// Copying or otherwise extracting text and graphics (`/P` bit 5).
    public static let copy = PDFPermissions(rawValue: UInt32(LECTERN_POPPLER_PERMISSIONS_OK_TO_COPY))
    public static let addNotes = PDFPermissions(rawValue: UInt32(LECTERN_POPPLER_PERMISSIONS_OK_TO_ADD_NOTES))
    public static let fillForm = PDFPermissions(rawValue: UInt32(LECTERN_POPPLER_PERMISSIONS_OK_TO_FILL_FORM))
    /// Extraction for accessibility (`/P` bit 10).
    public static let extractContents = PDFPermissions(rawValue: UInt32(LECTERN_POPPLER_PERMISSIONS_OK_TO_EXTRACT_CONTENTS))
    public static let assemble = PDFPermissions(rawValue: UInt32(LECTERN_POPPLER_PERMISSIONS_OK_TO_ASSEMBLE))
    public static let printHighResolution = PDFPermissions(rawValue: UInt32(LECTERN_POPPLER_PERMISSIONS_OK_TO_PRINT_HIGH_RESOLUTION))

    /// Everything: unencrypted documents.
    public static let all = PDFPermissions(rawValue: UInt32(LECTERN_POPPLER_PERMISSIONS_FULL))
}
