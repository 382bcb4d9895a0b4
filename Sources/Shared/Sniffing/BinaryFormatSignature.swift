/// The binary publication formats recognised by their magic numbers alone: the archives read
/// through libarchive (RAR, 7z, tar), taken as comic books, Mobipocket/Kindle books and DjVu.
///
/// An archive's entries are not looked at here (libarchive is the Streamer's, not the
/// sniffer's): a RAR, 7z or tar archive is a comic book, and one without pictures fails to
/// open with a message saying so.
enum BinaryFormatSignature {
    static func format(of head: some Collection<UInt8>, hints: FormatHints) -> Format? {
        let bytes = Array(head.prefix(512))
        if bytes.starts(with: Array(#"{\rtf"#.utf8)) { return Format(kind: .rtf) }
        if bytes.starts(with: [0x52, 0x61, 0x72, 0x21, 0x1A, 0x07]) { return Format(kind: .cbr) }
        if bytes.starts(with: [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return Format(kind: .cb7) }
        if bytes.count >= 262, bytes[257..<262].elementsEqual("ustar".utf8) { return Format(kind: .cbt) }
        // An IFF85 file "AT&T" whose FORM is DJVU (one page) or DJVM (several).
        if bytes.count >= 16, bytes[0..<8].elementsEqual("AT&TFORM".utf8),
           bytes[12..<16].elementsEqual("DJVU".utf8) || bytes[12..<16].elementsEqual("DJVM".utf8) {
            return Format(kind: .djvu)
        }
        if bytes.count >= 68, bytes[60..<68].elementsEqual("BOOKMOBI".utf8) || bytes[60..<68].elementsEqual("TEXtREAd".utf8) {
            return Format(kind: isKF8Only(head) || hints.format?.kind == .azw3 ? .azw3 : .mobi)
        }
        return nil
    }

    /// Whether the MOBI header of record 0, when within `head`, declares version 8: a book
    /// with the Kindle Format 8 part alone (a hybrid `.mobi` declares 6 and holds both).
    private static func isKF8Only(_ head: some Collection<UInt8>) -> Bool {
        let bytes = Array(head)
        guard bytes.count >= 82 else { return false }
        let record0 = Int(bytes[78]) << 24 | Int(bytes[79]) << 16 | Int(bytes[80]) << 8 | Int(bytes[81])
        let version = record0 + 16 + 20
        guard record0 > 0, version + 4 <= bytes.count, bytes[(record0 + 16)..<(record0 + 20)].elementsEqual("MOBI".utf8) else {
            return false
        }
        return bytes[version..<(version + 4)].elementsEqual([0, 0, 0, 8])
    }
}
