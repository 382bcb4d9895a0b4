import FoundationEssentials
import LibZip

/// Tells whether a password unlocks an archive, by trying it on a few small encrypted entries
/// ("probes"), and finds the byte encoding it was written with.
///
/// - Traditional PKWARE: libzip checks one byte of the decrypted 12-byte header, so one wrong
///   password in 256 gets through; only reading a whole entry, CRC included, verifies it.
///   A probe that passes the check but fails later (CRC, corrupt DEFLATE, short data) is
///   *doubtful*: the next probe decides, since a wrong password rarely passes two checks.
/// - WinZip AES: the 2-byte verifier decides (one wrong password in 65,536 passes it); every
///   probe's verifier must match. A damaged entry still has a valid verifier, so damage is
///   reported when that entry is read, as damage, not as a wrong password.
///
/// The archive is assumed to have one password for all its entries, as every tool writes them.
struct ZIPPasswordVerifier {
    let archive: ZipArchive
    /// The encrypted entries tried, most telling first.
    let probes: [ZipEntry]

    static let maxProbes = 4

    init(archive: ZipArchive) {
        self.archive = archive
        probes = Self.probes(in: archive.entries)
    }

    /// The encrypted entries that can be decrypted, the best probes first: small ones (cheap
    /// to read whole), but not tiny ones, whose CRC says little (an empty PKWARE entry has
    /// nothing to check beyond the header byte).
    static func probes(in entries: [ZipEntry]) -> [ZipEntry] {
        let candidates = entries.filter { entry in
            guard !entry.isDirectory else { return false }
            switch entry.encryption {
            case .traditionalPKWARE, .winZipAES: return true
            case .none, .unsupported: return false
            }
        }
        func rank(_ entry: ZipEntry) -> (Int, UInt64) {
            let size = max(entry.size, entry.compressedSize)
            return (entry.size == 0 ? 2 : entry.size < 16 ? 1 : 0, size)
        }
        return Array(candidates.sorted { rank($0) < rank($1) }.prefix(maxProbes))
    }

    /// What trying one encoding of a password told.
    enum Outcome {
        /// Unlocks the archive.
        case verified
        /// Does not.
        case wrong
        /// Passed the quick check, then failed: wrong, or the archive is damaged.
        case doubtful
        /// The entries could not be read at all.
        case failed(any Error)
    }

    /// The bytes of `password` that unlock the archive, which is left set to them.
    func unlock(with password: String) -> Result<[UInt8], ZIPPasswordError> {
        var sawDoubtful = false, sawWrong = false
        var failure: (any Error)?
        for bytes in ZIPPasswordEncodings.candidates(for: password) {
            switch check(bytes) {
            case .verified:
                archive.setPassword(bytes: bytes)
                return .success(bytes)
            case .wrong: sawWrong = true
            case .doubtful: sawDoubtful = true
            case .failed(let error): failure = failure ?? error
            }
        }
        archive.setPassword(bytes: nil)
        if sawDoubtful { return .failure(.incorrectPasswordOrDamaged) }
        if sawWrong { return .failure(.incorrectPassword) }
        return .failure(.damaged(cause: failure ?? ZipError.readFailed("no encrypted entry can be read")))
    }

    /// Tries one encoding on the probes.
    func check(_ password: [UInt8]) -> Outcome {
        archive.setPassword(bytes: password)
        var verified = false, doubtful = false
        var failure: (any Error)?
        for probe in probes {
            switch check(probe, password: password) {
            case .wrong:
                return .wrong
            case .verified(let conclusive):
                if conclusive { return .verified }
                verified = true
            case .doubtful:
                doubtful = true
            case .failed(let error):
                failure = failure ?? error
            }
        }
        if verified { return .verified }
        if doubtful { return .doubtful }
        return .failed(failure ?? ZipError.readFailed("no encrypted entry can be read"))
    }

    enum ProbeOutcome {
        /// The password passed; `conclusive` when the whole entry was checked.
        case verified(conclusive: Bool)
        case wrong
        case doubtful
        case failed(any Error)
    }

    func check(_ entry: ZipEntry, password: [UInt8]) -> ProbeOutcome {
        switch entry.encryption {
        case .traditionalPKWARE: checkPKWARE(entry)
        case .winZipAES(let keyLength): checkWinZipAES(entry, keyLength: keyLength, password: password)
        case .none, .unsupported: .failed(ZipError.unsupportedEncryption(entry.encryptionMethod))
        }
    }

    /// Reads the whole entry through libzip with the archive's password set: the header byte,
    /// then the data and its CRC. An entry too large to read whole gets the header check only.
    private func checkPKWARE(_ entry: ZipEntry) -> ProbeOutcome {
        do {
            if entry.size > ZipArchive.maxWholeEntrySize {
                _ = try archive.read(entry, range: 0..<1)
                return .verified(conclusive: false)
            }
            _ = try archive.read(entry)
            return .verified(conclusive: true)
        } catch {
            switch error {
            case .wrongPassword, .passwordRequired: return .wrong
            case .closed, .cannotOpen, .unsupportedEncryption, .unsupportedCompression: return .failed(error)
            // Past the header check, garbage from a wrong key fails as a CRC error, invalid
            // DEFLATE, or data of the wrong length.
            default: return .doubtful
            }
        }
    }

    private func checkWinZipAES(_ entry: ZipEntry, keyLength: Int, password: [UInt8]) -> ProbeOutcome {
        do throws(WinZipAESError) {
            // Only the raw bytes matter here: the real compression method and the declared
            // size are checked when the entry is read.
            guard entry.compressedSize <= ZipArchive.maxWholeEntrySize else { throw .implausibleSize(entry.compressedSize) }
            let raw: Data
            do { raw = try archive.readRaw(entry) } catch { throw .archive(error) }
            let aes = try WinZipAESEntry(raw: Array(raw), keyLength: keyLength)
            return try aes.accepts(password: password) ? .verified(conclusive: false) : .wrong
        } catch {
            return .failed(error)
        }
    }
}
