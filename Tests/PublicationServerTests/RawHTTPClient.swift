import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 client over a loopback socket, for the requests other clients would
/// rewrite: raw paths (`..`, `%2e%2e`, backslashes, which URLSession and curl normalise) and
/// a chosen `Host` header. One request per connection (`Connection: close`).
struct RawHTTPClient {
    struct Response {
        let status: Int
        /// Header names lowercased; the last value of a repeated header.
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: body) as? [String: Any] }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let port: Int
    /// Connects to `::1` instead of `127.0.0.1`.
    var ipv6 = false
    /// Headers sent with every request (those given to a request win).
    var fixedHeaders: [String: String] = [:]

    /// Sends `method target` with `Host: host` (the loopback address and port by default).
    func request(_ target: String, method: String = "GET", host: String? = nil,
                 headers: [String: String] = [:]) throws -> Response {
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            address.sin6_addr = in6addr_loopback
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(errno)") }
        let defaultHost = ipv6 ? "[::1]:\(port)" : "127.0.0.1:\(port)"
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? defaultHost)\r\nConnection: close\r\n"
        for (name, value) in fixedHeaders.merging(headers, uniquingKeysWith: { $1 }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress!, $0.count, 0) }
            guard written > 0 else { throw Failure(description: "send: \(errno)") }
            sent += written
        }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0 { throw Failure(description: "recv: \(errno)") }
            if count == 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return try Self.parse(received, method: method)
    }

    private static func parse(_ data: Data, method: String) throws -> Response {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { throw Failure(description: "no header end in \(data.count) bytes") }
        let lines = String(decoding: data[data.startIndex..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(data[end.upperBound...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = try dechunked(body) }
        return Response(status: status, headers: headers, body: body)
    }

    private static func dechunked(_ data: Data) throws -> Data {
        var out = Data()
        var index = data.startIndex
        while true {
            guard let lineEnd = data[index...].range(of: Data("\r\n".utf8)) else { throw Failure(description: "bad chunk") }
            let sizeText = String(decoding: data[index..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText, radix: 16) else { throw Failure(description: "bad chunk size") }
            index = lineEnd.upperBound
            if size == 0 { return out }
            out.append(data[index..<(index + size)])
            index += size + 2
        }
    }
}
