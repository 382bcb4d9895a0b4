import FoundationEssentials
import LCP
import LibCrypto
import Shared

/// An LCP license document: parsed, written in its canonical form (what the signature
/// covers), then through the basic-profile client: signature and provider certificate,
/// passphrase search, key check, content key and user fields.
public enum LCPLicenseInput {
    /// The passphrases of the sample licenses, so that seeds from them reach decryption.
    static let hashedPassphrases = ["dan", "test", "correct horse battery staple"]
        .map { Digest.sha256(Array($0.utf8)).hexString }

    public static func consume(_ bytes: [UInt8]) {
        let license: LicenseDocument
        do {
            license = try LicenseDocument(data: bytes)
        } catch {
            return
        }
        checkCanonicalForm(of: license)
        for link in license.links {
            _ = link.url(["id": "fuzz-device", "name": "Fuzz device", "end": "2030-01-01T00:00:00Z"])
            _ = link.mediaType
            _ = link.hashBytes
        }
        _ = (license.rights.print, license.rights.copy, license.rights.start, license.rights.end)
        _ = license.user.encrypted

        let client = BasicProfileLCPClient()
        let text = String(decoding: bytes, as: UTF8.self)
        do {
            try client.checkSignature(jsonLicense: text)
        } catch {
            // Refused: the integrity errors are the expected outcome for nearly every input.
        }
        let key = client.findOneValidPassphrase(jsonLicense: text, hashedPassphrases: hashedPassphrases)
            ?? hashedPassphrases[0]
        let context: any LCPClientContext
        do {
            context = try client.createContext(jsonLicense: text, hashedPassphrase: key, pemCrl: nil)
        } catch {
            return
        }
        _ = context.userFields
        _ = client.decrypt(data: Data(repeating: 0x5A, count: 64), using: context)
    }

    /// The canonical form parses, and canonicalising it again changes nothing: two clients
    /// that re-read a license must agree on the bytes its signature covers.
    static func checkCanonicalForm(of license: LicenseDocument) {
        let canonical = license.canonicalBytes
        let tree: JSONValue
        do {
            tree = try JSONParser.parse(canonical)
        } catch {
            HarnessInvariant.check(false, "the canonical form of a license does not parse: \(error)")
            return
        }
        HarnessInvariant.check(LicenseDocument.canonicalBytes(of: tree) == canonical,
                               "the canonical form of a license is not stable when re-read")
    }
}
