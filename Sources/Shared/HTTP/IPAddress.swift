#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 address, by its bytes, and the kinds of address that designate this
/// machine or its local networks rather than the Internet.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), in network order.
    public let bytes: [UInt8]

    /// nil unless there are 4 or 16 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// An address in its usual text form (`127.0.0.1`, `::1`, `[::1]`); nil for a name.
    public init?(_ text: String) {
        var text = Substring(text)
        if text.hasPrefix("["), text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, String(text), &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
        } else if inet_pton(AF_INET6, String(text), &v6) == 1 {
            bytes = withUnsafeBytes(of: v6) { Array($0) }
        } else {
            return nil
        }
    }

    /// The IPv4 address inside an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::a.b.c.d`)
    /// IPv6 address, which reach that IPv4 address.
    var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
        let nat64 = bytes[0..<12].elementsEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])
        return mapped || nat64 ? IPAddress(bytes: Array(bytes[12...])) : nil
    }

    /// `127.0.0.0/8` or `::1` (or an IPv4 loopback address mapped into IPv6).
    public var isLoopback: Bool {
        if let embeddedIPv4 { return embeddedIPv4.isLoopback }
        return bytes.count == 4 ? bytes[0] == 127 : bytes == Array(repeating: 0, count: 15) + [1]
    }

    /// `0.0.0.0` or `::`: "every address of this machine" when listening.
    public var isUnspecified: Bool {
        bytes.allSatisfy { $0 == 0 }
    }

    /// An address that is not on the public Internet: this machine (loopback, unspecified),
    /// private networks (10/8, 172.16/12, 192.168/16, shared 100.64/10, unique-local fc00::/7),
    /// link-local (169.254/16, fe80::/10, where cloud metadata services live), multicast and
    /// reserved ranges. A server a publication names must not make Lectern reach these.
    public var isLocal: Bool {
        if isLoopback || isUnspecified { return true }
        if let embeddedIPv4 { return embeddedIPv4.isLocal }
        if bytes.count == 4 {
            let (a, b) = (bytes[0], bytes[1])
            return a == 0 || a == 10 || a == 127 || (a == 100 && b & 0xC0 == 64) || (a == 169 && b == 254)
                || (a == 172 && b & 0xF0 == 16) || (a == 192 && b == 168) || (a == 192 && b == 0 && bytes[2] == 0)
                || (a == 198 && b & 0xFE == 18) || a >= 224
        }
        let (a, b) = (bytes[0], bytes[1])
        // fc00::/7 unique-local, fe80::/10 link-local, fec0::/10 site-local (deprecated), ff00::/8 multicast,
        // and the IPv4-compatible ::/96 (deprecated, reaches IPv4 addresses).
        return a & 0xFE == 0xFC || (a == 0xFE && b & 0xC0 == 0x80) || (a == 0xFE && b & 0xC0 == 0xC0) || a == 0xFF
            || bytes[0..<12].allSatisfy { $0 == 0 }
    }

    public var description: String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        bytes.withUnsafeBytes { raw in
            _ = inet_ntop(bytes.count == 4 ? AF_INET : AF_INET6, raw.baseAddress, &text, socklen_t(text.count))
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
