import Shared
#if canImport(Glibc)
import Glibc
#endif

/// How the server learns the addresses behind a name and the machine's own addresses: the
/// system's by default; tests give their own, so that no name is ever looked up on a network.
public struct HostResolver: Sendable {
    /// The addresses `host` (a name or an address literal) resolves to; empty when it does not.
    public var addresses: @Sendable (_ host: String) -> [IPAddress]
    /// The addresses of this machine's network interfaces.
    public var interfaceAddresses: @Sendable () -> [IPAddress]

    public init(addresses: @escaping @Sendable (String) -> [IPAddress],
                interfaceAddresses: @escaping @Sendable () -> [IPAddress] = { HostResolver.system.interfaceAddresses() }) {
        self.addresses = addresses
        self.interfaceAddresses = interfaceAddresses
    }

    /// `getaddrinfo` (an address literal is never looked up) and `getifaddrs`.
    public static let system = HostResolver(addresses: { host in
        if let literal = IPAddress(host) { return [literal] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var found: [IPAddress] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ai_addr.flatMap(Self.address(of:)), !found.contains(address) { found.append(address) }
            entry = current.pointee.ai_next
        }
        return found
    }, interfaceAddresses: {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return [] }
        defer { freeifaddrs(list) }
        var found: [IPAddress] = []
        var entry = list
        while let current = entry {
            if let address = current.pointee.ifa_addr.flatMap(Self.address(of:)), !found.contains(address) { found.append(address) }
            entry = current.pointee.ifa_next
        }
        return found
    })

    /// The IPv4 or IPv6 address of a socket address; nil for other families.
    static func address(of socketAddress: UnsafeMutablePointer<sockaddr>) -> IPAddress? {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            let ip = UnsafeRawPointer(socketAddress).loadUnaligned(as: sockaddr_in.self).sin_addr
            return IPAddress(bytes: withUnsafeBytes(of: ip) { Array($0) })
        case AF_INET6:
            let ip = UnsafeRawPointer(socketAddress).loadUnaligned(as: sockaddr_in6.self).sin6_addr
            return IPAddress(bytes: withUnsafeBytes(of: ip) { Array($0) })
        default:
            return nil
        }
    }
}
