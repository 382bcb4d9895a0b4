import FoundationEssentials
import LibCrypto
import Shared

/// The LCP client of the open basic (test) profile, on OpenSSL (LCP §4–§6).
///
/// User key = SHA-256 of the passphrase's UTF-8 bytes (no trimming, no normalisation);
/// key check, content key and user fields are AES-256-CBC with the user key; resources with
/// the content key; the signature is RSA-SHA256 (PKCS#1 v1.5) or ECDSA-SHA256 (raw r‖s) over
/// the canonical JSON; the provider certificate must chain to a trust anchor and have been
/// valid at `updated ?? issued` (not now); a CRL, when given, must not list it.
public struct BasicProfileLCPClient: LCPClient {
    public let trust: LCPTrustSettings

    public init(trust: LCPTrustSettings = .default) {
        self.trust = trust
    }

    public var supportedProfiles: Set<String> { [LCPProfile.basic] }

    public func createContext(jsonLicense: String, hashedPassphrase: String, pemCrl: String?) throws(LCPError) -> any LCPClientContext {
        let license = try LicenseDocument(data: Array(jsonLicense.utf8))
        guard supportedProfiles.contains(license.encryption.profile) else {
            throw .profileNotSupported(license.encryption.profile)
        }
        guard license.encryption.contentKey.algorithm == LCPAlgorithm.aes256CBC else {
            throw .licenseIntegrity("unknown content key algorithm \(license.encryption.contentKey.algorithm)")
        }
        guard license.encryption.userKey.algorithm == LCPAlgorithm.sha256 else {
            throw .licenseIntegrity("unknown user key algorithm \(license.encryption.userKey.algorithm)")
        }
        let certificate = try verifySignature(of: license)
        let trust = try checkCertificate(certificate, of: license)
        if let pemCrl, !pemCrl.isEmpty, isRevoked(certificate, by: pemCrl) {
            throw .certificateRevoked
        }
        guard let userKey = Self.userKey(hex: hashedPassphrase), Self.keyCheckPasses(license, userKey: userKey) else {
            throw .wrongPassphrase(hint: license.encryption.userKey.textHint, hintLink: license.link(LicenseRel.hint)?.href)
        }
        guard let contentKey = try? LCPBlobCipher.decrypt(license.encryption.contentKey.encryptedValue, key: userKey),
              contentKey.count == 32
        else { throw .contentKeyDecryptError }
        return BasicProfileContext(contentKey: contentKey, userFields: Self.userFields(of: license, userKey: userKey),
                                   certificateTrust: trust)
    }

    public func checkSignature(jsonLicense: String) throws(LCPError) {
        let license = try LicenseDocument(data: Array(jsonLicense.utf8))
        guard supportedProfiles.contains(license.encryption.profile) else {
            throw .profileNotSupported(license.encryption.profile)
        }
        _ = try checkCertificate(try verifySignature(of: license), of: license)
    }

    public func decrypt(data: Data, using context: any LCPClientContext) -> Data? {
        guard let context = context as? BasicProfileContext,
              let plaintext = try? LCPBlobCipher.decrypt(data, key: context.contentKey) else { return nil }
        return Data(plaintext)
    }

    public func decryptBlocks(data: Data, using context: any LCPClientContext) -> Data? {
        guard let context = context as? BasicProfileContext, data.count >= 32, data.count % 16 == 0,
              let decryptor = try? AESCBCDecryptor(key: context.contentKey, iv: data.prefix(16)) else { return nil }
        var output = Data(count: data.count - 16)
        let ok = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                (try? decryptor.decrypt(input.baseAddress! + 16, count: input.count - 16, into: out.baseAddress!)) != nil
            }
        }
        return ok ? output : nil
    }

    public func blockDecryptor(iv: [UInt8], using context: any LCPClientContext) -> (any LCPBlockDecryptor)? {
        guard let context = context as? BasicProfileContext,
              let decryptor = try? AESCBCDecryptor(key: context.contentKey, iv: iv) else { return nil }
        return BasicProfileBlockDecryptor(decryptor: decryptor)
    }

    /// Each candidate is first tried on the last block of `key_check` alone (one AES block with
    /// a reused OpenSSL context: the license id's last bytes and the padding length must come
    /// out), then, for the rare one that passes, on the whole of it.
    public func findOneValidPassphrase(jsonLicense: String, hashedPassphrases: [String]) -> String? {
        guard let license = try? LicenseDocument(data: Array(jsonLicense.utf8)) else { return nil }
        let filter = KeyCheckFilter(license)
        // A key check that cannot decrypt to the id, whatever the key: nothing opens it.
        if filter == nil, !KeyCheckFilter.isUsable(license) { return nil }
        var key = [UInt8](repeating: 0, count: 32)
        for candidate in hashedPassphrases {
            guard Hex.decodeSHA256(candidate, into: &key) else { continue }
            if let filter, !filter.mayOpen(with: key) { continue }
            if Self.keyCheckPasses(license, userKey: key) { return key.hexString }
        }
        return nil
    }

    // MARK: - Steps

    /// Verifies the license signature with the embedded provider certificate.
    private func verifySignature(of license: LicenseDocument) throws(LCPError) -> X509Certificate {
        let certificate: X509Certificate
        do {
            certificate = try X509Certificate(der: license.signature.certificate)
        } catch {
            throw .licenseIntegrity("the provider certificate cannot be read: \(error)")
        }
        let algorithm: SignatureAlgorithm
        switch license.signature.algorithm {
        case LCPAlgorithm.rsaSHA256: algorithm = .rsaPKCS1v15SHA256
        case LCPAlgorithm.ecdsaSHA256: algorithm = .ecdsaSHA256Raw
        default: throw .licenseIntegrity("unknown signature algorithm \(license.signature.algorithm)")
        }
        guard certificate.verifySignature(license.signature.value, of: license.canonicalBytes, algorithm: algorithm) else {
            throw .signatureInvalid
        }
        return certificate
    }

    /// Chains the certificate to the anchors at the license's date; falls back to the pinned
    /// legacy test certificate in test mode.
    private func checkCertificate(_ certificate: X509Certificate, of license: LicenseDocument) throws(LCPError) -> LCPCertificateTrust {
        let date = license.dateOfLastUpdate
        let time = Int64(date.timeIntervalSince1970.rounded(.down))
        let result = X509TrustStore(anchors: trust.anchors).verify(certificate, at: time)
        if result.isValid { return .chain }
        if trust.policy == .basicProfileTestMode,
           certificate.sha256Fingerprint.hexString == LCPTestCertificates.legacyTestProviderSHA256 {
            guard certificate.isValid(at: time) else { throw .certificateExpiredAtLicenseDate(date) }
            return .legacyTestCertificate
        }
        // OpenSSL stops at the first problem: a root that was not valid yet at the license's
        // date means no chain existed then, whereas the provider certificate itself being
        // outside its validity is the date problem.
        if result.isOutsideValidity, result.depth == 0 { throw .certificateExpiredAtLicenseDate(date) }
        throw .certificateUntrusted(result.message)
    }

    /// Whether a CRL issued by one of the anchors lists the certificate. A CRL that cannot be
    /// read, or that no anchor issued, says nothing about it.
    private func isRevoked(_ certificate: X509Certificate, by pem: String) -> Bool {
        guard let crl = try? X509CRL(pemOrDER: Array(pem.utf8)) else { return false }
        return trust.anchors.contains { crl.isIssued(by: $0) } && crl.isRevoked(certificate)
    }

    // MARK: - Keys

    /// The 32 bytes of a hexadecimal user key.
    static func userKey(hex: String) -> [UInt8]? {
        guard Hex.isSHA256(hex) else { return nil }
        return Hex.decode(hex)
    }

    /// The user key of a passphrase: SHA-256 of its UTF-8 bytes, as they are.
    public static func userKey(passphrase: String) -> String {
        Digest.sha256(Array(passphrase.utf8)).hexString
    }

    /// Whether `key_check` decrypts to the license id, compared as bytes (garbage from a wrong
    /// key need not be UTF-8).
    static func keyCheckPasses(_ license: LicenseDocument, userKey: [UInt8]) -> Bool {
        guard let plaintext = try? LCPBlobCipher.decrypt(license.encryption.userKey.keyCheck, key: userKey) else { return false }
        return plaintext.elementsEqual(license.id.utf8)
    }

    /// The `user` members listed in `user.encrypted`, decrypted with the user key; a member
    /// that does not decrypt is left out.
    static func userFields(of license: LicenseDocument, userKey: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for name in license.user.encrypted {
            guard let value = license.user.json[name]?.string, let blob = Data(lenientBase64: value),
                  let plaintext = try? LCPBlobCipher.decrypt(blob, key: userKey),
                  let text = String(validating: plaintext, as: UTF8.self) else { continue }
            fields[name] = text
        }
        return fields
    }
}

/// The keys of an opened basic-profile license, in memory only.
struct BasicProfileContext: LCPClientContext {
    let contentKey: [UInt8]
    let userFields: [String: String]
    let certificateTrust: LCPCertificateTrust
}

/// ``LCPBlockDecryptor`` on OpenSSL.
struct BasicProfileBlockDecryptor: LCPBlockDecryptor {
    let decryptor: AESCBCDecryptor

    func decrypt(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawPointer) -> Bool {
        guard let base = input.baseAddress else { return input.isEmpty }
        return (try? decryptor.decrypt(base, count: input.count, into: output)) != nil
    }
}

/// The cheap first test of a candidate user key: the last block of `key_check`, decrypted
/// with the key and its ciphertext predecessor as IV, must end with the license id's last
/// bytes followed by the padding length the id implies. A wrong key passes with a
/// probability of 2⁻⁸ at most (an id filling whole blocks leaves only the padding byte to
/// compare), 2⁻⁴⁰ for the 36-character UUIDs servers use.
final class KeyCheckFilter {
    private let decryptor: AES256BlockDecryptor
    private let lastBlock: [UInt8]
    private let previousBlock: [UInt8]
    /// The bytes the last plaintext block must start with (the id's tail), and its last byte.
    private let idTail: [UInt8]
    private let padLength: UInt8
    private var plain = [UInt8](repeating: 0, count: 16)

    /// Nil when the key check cannot be filtered this way (then every candidate gets the full
    /// check).
    init?(_ license: LicenseDocument) {
        let blob = license.encryption.userKey.keyCheck
        let id = Array(license.id.utf8)
        guard Self.isUsable(license), let decryptor = try? AES256BlockDecryptor() else { return nil }
        let pad = blob.count - 16 - id.count
        self.decryptor = decryptor
        lastBlock = Array(blob[(blob.count - 16)...])
        previousBlock = Array(blob[(blob.count - 32)..<(blob.count - 16)])
        idTail = Array(id.suffix(16 - pad))
        padLength = UInt8(pad)
    }

    /// Whether the blob's length fits the id: IV, then the id padded with 1…16 bytes.
    static func isUsable(_ license: LicenseDocument) -> Bool {
        let blob = license.encryption.userKey.keyCheck
        let pad = blob.count - 16 - license.id.utf8.count
        return blob.count >= 32 && blob.count % 16 == 0 && (1...16).contains(pad)
    }

    func mayOpen(with key: [UInt8]) -> Bool {
        let decrypted = lastBlock.withUnsafeBytes { block in
            key.withUnsafeBytes { key in
                plain.withUnsafeMutableBytes { out in decryptor.decryptBlock(block.baseAddress!, key: key.baseAddress!, into: out.baseAddress!) }
            }
        }
        guard decrypted, plain[15] ^ previousBlock[15] == padLength else { return false }
        for index in 0..<idTail.count where plain[index] ^ previousBlock[index] != idTail[index] { return false }
        return true
    }
}
