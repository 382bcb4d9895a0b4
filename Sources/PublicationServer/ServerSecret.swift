/// The per-run random first path segment of every URL: other local users and web pages cannot
/// guess the URLs of the books being served, so a request without it is answered 404.
public struct ServerSecret: Sendable, Equatable, CustomStringConvertible {
    /// The secret as it appears in URLs (lowercase hexadecimal).
    public let description: String

    /// 160 random bits from the system's cryptographic generator (`getrandom` on Linux).
    public init() {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<20 {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text += String(byte >> 4, radix: 16) + String(byte & 0xF, radix: 16)
        }
        description = text
    }

    /// A fixed secret (tests).
    public init(_ text: String) {
        description = text
    }

    /// Compares in time independent of where the first difference is, so that response times
    /// do not reveal a prefix of the secret.
    func matches(_ candidate: Substring) -> Bool {
        let expected = Array(description.utf8), given = Array(candidate.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in 0..<expected.count {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}
