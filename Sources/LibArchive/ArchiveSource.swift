import FoundationEssentials

/// Where an archive's bytes are: a file, or memory (a download, a fuzzer's input).
enum ArchiveSource: @unchecked Sendable {
    case file(String)
    /// Bytes owned by the ``StreamingArchive``, freed when it goes; never written to.
    case memory(UnsafeRawBufferPointer)

    /// The first bytes, for the RAR main header.
    func head(_ count: Int) -> [UInt8] {
        switch self {
        case .file(let path): RARMainHeader.head(of: path)
        case .memory(let bytes): Array(bytes.prefix(count))
        }
    }
}
