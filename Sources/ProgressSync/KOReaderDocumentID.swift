import FoundationEssentials
import LibCrypto
#if canImport(Glibc)
import Glibc
#endif

/// How a book is named to a kosync server: KOReader's two settings, which every device syncing
/// one book must share.
public enum DocumentMatching: String, Sendable, CaseIterable {
    /// KOReader's "binary" matching (its default): the partial MD5 of the file's bytes, so
    /// that copies of one file match wherever they are and whatever they are called.
    case binary
    /// KOReader's "file name" matching: the MD5 of the file's name, for files that are
    /// rewritten on each device (a PDF whose annotations are saved into it).
    case fileName = "filename"
}

/// Why a document id could not be computed.
public struct DocumentIDError: Error, Sendable, Equatable {
    /// The file that could not be read.
    public let path: String
    /// The system's reason.
    public let reason: String

    /// A sentence for a person.
    public var message: String { "cannot read \(path): \(reason)" }
}

/// KOReader's document ids (`util.partialMD5`, and the file name's MD5).
public enum KOReaderDocumentID {
    /// The length of each sample.
    static let sampleLength = 1024

    /// Where the samples start: 0, then 1024·4^i for i = 0…10 (1 KiB, 4 KiB, … 1 GiB).
    ///
    /// KOReader computes them as `lshift(1024, 2*i)` for i = -1…10 in LuaJIT, whose 32-bit
    /// shift of -2 (taken as 30) pushes every bit out: its first sample is at 0.
    static let sampleOffsets: [Int64] = [0] + (0...10).map { Int64(1024) << (2 * $0) }

    /// The id of the file at `path` by `matching`.
    public static func id(ofFileAt path: String, matching: DocumentMatching) throws(DocumentIDError) -> String {
        switch matching {
        case .binary: try partialMD5(ofFileAt: path)
        case .fileName: fileNameMD5(of: path)
        }
    }

    /// The MD5 over the 1,024-byte samples at ``sampleOffsets``, stopping at the first offset
    /// at or past the end of the file; the last sample is whatever is left there. The samples
    /// weigh the start of the file most, so that a few bytes appended to a large file (a PDF's
    /// saved annotations) seldom change the id.
    public static func partialMD5(ofFileAt path: String) throws(DocumentIDError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DocumentIDError(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var digest = Digest(.md5)
        var buffer = [UInt8](repeating: 0, count: sampleLength)
        for offset in sampleOffsets {
            let count = try readSample(fd, at: offset, into: &buffer, path: path)
            if count == 0 { break }
            digest.update(buffer[0..<count])
        }
        return digest.finalize().hexString
    }

    /// The MD5 of the file's name (its last path component), as KOReader's file-name matching.
    public static func fileNameMD5(of path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        return Digest.md5(Array(name.utf8)).hexString
    }

    /// Reads up to a sample's length at `offset`; 0 at or past the end of the file.
    private static func readSample(_ fd: Int32, at offset: Int64, into buffer: inout [UInt8],
                                   path: String) throws(DocumentIDError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + filled, raw.count - filled, off_t(offset) + off_t(filled))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw DocumentIDError(path: path, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            filled += n
        }
        return filled
    }
}
