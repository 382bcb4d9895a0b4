import Foundation
import LibCrypto
import TestSupport

/// A certificate authority and provider certificates made with the `openssl` command line for
/// this test run (once per process): RSA and ECDSA providers chained to a test root, one
/// expired today but valid in 2020, one revoked by the CA's CRL, and one from another CA.
final class TestPKI: Sendable {
    /// A provider certificate and its private key.
    struct Signer: Sendable {
        let name: String
        let keyPath: String
        let certificateDER: Data
        let isEC: Bool

        /// The signature of `message`: RSA PKCS#1 v1.5 SHA-256, or ECDSA SHA-256 as raw r‖s.
        func sign(_ message: [UInt8]) throws -> Data {
            let file = Fixtures.temporaryDirectory("lcp-sign") + "/message"
            try Data(message).write(to: URL(fileURLWithPath: file))
            let signature = try Shell.openssl(["dgst", "-sha256", "-sign", keyPath, file])
            return isEC ? try Self.rawECDSA(fromDER: [UInt8](signature), half: 32) : signature
        }

        /// DER `SEQUENCE { INTEGER r, INTEGER s }` → r‖s, each left-padded to `half` bytes
        /// (written here independently of the module's DER conversion).
        static func rawECDSA(fromDER der: [UInt8], half: Int) throws -> Data {
            var index = 0
            func readLength() -> Int {
                let first = Int(der[index]); index += 1
                guard first & 0x80 != 0 else { return first }
                var length = 0
                for _ in 0..<(first & 0x7F) { length = length << 8 | Int(der[index]); index += 1 }
                return length
            }
            guard der[index] == 0x30 else { throw ShellError(command: "der", message: "not a sequence") }
            index += 1
            _ = readLength()
            var output = Data()
            for _ in 0..<2 {
                guard der[index] == 0x02 else { throw ShellError(command: "der", message: "not an integer") }
                index += 1
                let length = readLength()
                var integer = Array(der[index..<(index + length)])
                index += length
                while integer.count > half, integer.first == 0 { integer.removeFirst() }
                output += Data(repeating: 0, count: half - integer.count) + Data(integer)
            }
            return output
        }
    }

    static let shared: TestPKI = {
        do { return try TestPKI() } catch { fatalError("cannot make the test PKI: \(error)") }
    }()

    let directory: String
    let caPEM: String
    let rsa: Signer
    let ecdsa: Signer
    /// Valid 2020-01-01 → 2021-01-01 only.
    let expired: Signer
    /// Valid from 2090: never valid at a realistic license date.
    let notYetValid: Signer
    /// Listed in ``crlPEM``.
    let revoked: Signer
    /// Chained to another root, not trusted.
    let untrusted: Signer
    /// The CA's CRL, listing ``revoked``.
    let crlPEM: String
    /// A CRL of the other CA (listing nothing this CA issued).
    let otherCRLPEM: String

    private init() throws {
        directory = Fixtures.temporaryDirectory("lcp-pki")
        let main = try Self.makeCA(in: directory + "/ca", name: "Lectern LCP Test CA")
        let other = try Self.makeCA(in: directory + "/other", name: "Someone Else's CA")
        caPEM = try String(contentsOfFile: main + "/ca.pem", encoding: .utf8)
        rsa = try Self.issue(in: main, name: "Provider RSA", ec: false)
        ecdsa = try Self.issue(in: main, name: "Provider ECDSA", ec: true)
        expired = try Self.issue(in: main, name: "Provider 2020", ec: false, start: "20200101000000Z", end: "20210101000000Z")
        notYetValid = try Self.issue(in: main, name: "Provider 2090", ec: false, start: "20900101000000Z", end: "20950101000000Z")
        revoked = try Self.issue(in: main, name: "Provider Revoked", ec: false)
        untrusted = try Self.issue(in: other, name: "Provider Elsewhere", ec: false)
        try Shell.openssl(["ca", "-config", main + "/ca.cnf", "-cert", main + "/ca.pem", "-keyfile", main + "/ca.key",
                           "-revoke", main + "/Provider Revoked.pem"])
        try Shell.openssl(["ca", "-config", main + "/ca.cnf", "-cert", main + "/ca.pem", "-keyfile", main + "/ca.key",
                           "-gencrl", "-out", main + "/crl.pem"])
        try Shell.openssl(["ca", "-config", other + "/ca.cnf", "-cert", other + "/ca.pem", "-keyfile", other + "/ca.key",
                           "-gencrl", "-out", other + "/crl.pem"])
        crlPEM = try String(contentsOfFile: main + "/crl.pem", encoding: .utf8)
        otherCRLPEM = try String(contentsOfFile: other + "/crl.pem", encoding: .utf8)
    }

    private static func makeCA(in directory: String, name: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory + "/newcerts", withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: directory + "/index.txt"))
        try "1000\n".write(toFile: directory + "/serial", atomically: true, encoding: .utf8)
        try "1000\n".write(toFile: directory + "/crlnumber", atomically: true, encoding: .utf8)
        try """
            [ ca ]
            default_ca = testca
            [ testca ]
            dir = \(directory)
            database = $dir/index.txt
            new_certs_dir = $dir/newcerts
            serial = $dir/serial
            crlnumber = $dir/crlnumber
            default_md = sha256
            policy = policy_any
            unique_subject = no
            default_crl_days = 30
            [ policy_any ]
            commonName = supplied
            [ v3_ca ]
            basicConstraints = critical,CA:TRUE
            keyUsage = critical,keyCertSign,cRLSign
            subjectKeyIdentifier = hash
            [ v3_provider ]
            basicConstraints = critical,CA:FALSE
            keyUsage = digitalSignature
            extendedKeyUsage = serverAuth
            authorityKeyIdentifier = keyid
            """.write(toFile: directory + "/ca.cnf", atomically: true, encoding: .utf8)
        try Shell.openssl(["genrsa", "-out", directory + "/ca.key", "2048"])
        try Shell.openssl(["req", "-new", "-key", directory + "/ca.key", "-subj", "/CN=\(name)", "-out", directory + "/ca.csr"])
        // A root valid since 2000, so that chains can be checked at past license dates.
        try Shell.openssl(["ca", "-batch", "-config", directory + "/ca.cnf", "-selfsign", "-keyfile", directory + "/ca.key",
                           "-in", directory + "/ca.csr", "-out", directory + "/ca.pem", "-extensions", "v3_ca",
                           "-startdate", "20000101000000Z", "-enddate", "20991231000000Z", "-notext"])
        return directory
    }

    private static func issue(in ca: String, name: String, ec: Bool, start: String = "20000101000000Z",
                              end: String = "20991231000000Z") throws -> Signer {
        let key = ca + "/\(name).key", csr = ca + "/\(name).csr", pem = ca + "/\(name).pem"
        if ec {
            try Shell.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key])
        } else {
            try Shell.openssl(["genrsa", "-out", key, "2048"])
        }
        try Shell.openssl(["req", "-new", "-key", key, "-subj", "/CN=\(name)", "-out", csr])
        try Shell.openssl(["ca", "-batch", "-config", ca + "/ca.cnf", "-cert", ca + "/ca.pem", "-keyfile", ca + "/ca.key",
                           "-in", csr, "-out", pem, "-extensions", "v3_provider", "-startdate", start, "-enddate", end, "-notext"])
        let der = try Shell.openssl(["x509", "-in", pem, "-outform", "DER"])
        return Signer(name: name, keyPath: key, certificateDER: der, isEC: ec)
    }
}
