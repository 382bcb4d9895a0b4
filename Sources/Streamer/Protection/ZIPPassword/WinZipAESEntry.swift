import LibCrypto

/// The raw bytes of one WinZip AES entry (AE-1 or AE-2) and their decryption, per the WinZip
/// "AES Encryption Information" specification:
///
///     salt (key length / 2) | password verifier (2) | encrypted data | authentication code (10)
///
/// PBKDF2-HMAC-SHA1 with 1000 iterations turns the password and the salt into the AES key,
/// the HMAC key and the verifier, in that order. The data is AES in counter mode with a
/// little-endian counter starting at 1; the authentication code is the first 10 bytes of the
/// HMAC-SHA1 of the **encrypted** data, so damage is found before decrypting anything.
///
/// libzip 1.7.3 reads AE-1 entries but fails on AE-2 entries of 20 bytes or more (it checks
/// their CRC, which AE-2 sets to 0), which is every entry 7-Zip writes; Lectern therefore
/// decrypts every WinZip AES entry itself.
struct WinZipAESEntry {
    static let iterations = 1000
    static let verifierLength = 2
    static let authenticationCodeLength = 10

    /// AES key length in bytes: 16, 24 or 32.
    let keyLength: Int
    let raw: [UInt8]

    /// - Throws: ``WinZipAESError/truncated`` when `raw` cannot even hold the header and the
    ///   authentication code.
    init(raw: [UInt8], keyLength: Int) throws(WinZipAESError) {
        guard raw.count >= keyLength / 2 + Self.verifierLength + Self.authenticationCodeLength else { throw .truncated }
        self.raw = raw
        self.keyLength = keyLength
    }

    var saltLength: Int { keyLength / 2 }
    var salt: ArraySlice<UInt8> { raw[0..<saltLength] }
    var storedVerifier: ArraySlice<UInt8> { raw[saltLength..<(saltLength + Self.verifierLength)] }
    var ciphertext: ArraySlice<UInt8> { raw[(saltLength + Self.verifierLength)..<(raw.count - Self.authenticationCodeLength)] }
    var storedAuthenticationCode: ArraySlice<UInt8> { raw[(raw.count - Self.authenticationCodeLength)...] }

    /// The keys PBKDF2 derives from a password and this entry's salt.
    struct Keys {
        let encryption: ArraySlice<UInt8>
        let authentication: ArraySlice<UInt8>
        let verifier: ArraySlice<UInt8>
    }

    func keys(password: [UInt8]) throws(WinZipAESError) -> Keys {
        let derived: [UInt8]
        do {
            derived = try PBKDF2.deriveKey(password: password, salt: salt, iterations: Self.iterations,
                                           keyLength: 2 * keyLength + Self.verifierLength, digest: .sha1)
        } catch {
            throw .crypto(error)
        }
        return Keys(encryption: derived[0..<keyLength], authentication: derived[keyLength..<(2 * keyLength)],
                    verifier: derived[(2 * keyLength)...])
    }

    /// Whether `password` matches the 2-byte verifier. A wrong password passes one time in
    /// 65,536; the authentication code then fails.
    func accepts(password: [UInt8]) throws(WinZipAESError) -> Bool {
        try keys(password: password).verifier.elementsEqual(storedVerifier)
    }

    /// The decrypted data (still compressed when the entry's real method says so).
    ///
    /// - Throws: ``WinZipAESError/wrongPassword`` when the verifier does not match,
    ///   ``WinZipAESError/authenticationFailed`` when it does but the data was altered.
    func decrypt(password: [UInt8]) throws(WinZipAESError) -> [UInt8] {
        let keys = try keys(password: password)
        guard keys.verifier.elementsEqual(storedVerifier) else { throw .wrongPassword }
        var data = Array(ciphertext)
        do {
            let code = try MessageAuthenticationCode.hmac(.sha1, key: keys.authentication, message: data)
            guard MessageAuthenticationCode.isEqual(code.prefix(Self.authenticationCodeLength), storedAuthenticationCode) else {
                throw WinZipAESError.authenticationFailed
            }
            try AESLittleEndianCounterMode.apply(key: keys.encryption, to: &data, firstCounter: 1)
        } catch let error as WinZipAESError {
            throw error
        } catch let error as CryptoError {
            throw .crypto(error)
        } catch {
            throw .crypto(.library("\(error)"))
        }
        return data
    }
}
