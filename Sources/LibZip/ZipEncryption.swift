/// How the data of a ZIP entry is encrypted, as libzip reports it from the central directory.
public enum ZipEncryption: Sendable, Hashable {
    /// In clear.
    case none
    /// Traditional PKWARE encryption ("ZipCrypto"): a password-keyed stream cipher whose
    /// 12-byte header checks only one byte of the password.
    case traditionalPKWARE
    /// WinZip AES (AE-1 or AE-2; compression method 99 with extra field 0x9901), with an AES
    /// key of `keyLength` bytes: 16, 24 or 32.
    case winZipAES(keyLength: Int)
    /// PKWARE strong encryption or any other method (the raw libzip method number).
    case unsupported(UInt16)
}

extension ZipEntry {
    /// The entry's encryption.
    ///
    /// For WinZip AES entries libzip has already read the 0x9901 extra field (and keeps it to
    /// itself, so ``ZipArchive/extraField(_:of:)`` does not return it): the strength is in
    /// ``encryptionMethod`` and the real compression method in ``compressionMethod``. An
    /// extra field with a strength libzip does not know makes libzip refuse the archive.
    public var encryption: ZipEncryption {
        switch encryptionMethod {
        case 0: .none
        case 1: .traditionalPKWARE
        case 0x0101: .winZipAES(keyLength: 16)
        case 0x0102: .winZipAES(keyLength: 24)
        case 0x0103: .winZipAES(keyLength: 32)
        default: .unsupported(encryptionMethod)
        }
    }
}
