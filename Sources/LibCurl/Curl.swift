import CLecternCurl
#if canImport(Glibc)
import Glibc
#endif

/// Performs HTTP requests with libcurl's easy interface, synchronously on the calling thread.
/// Call it from a background task, never from the interface thread.
public enum Curl {
    /// Whether libcurl could be loaded (it is opened on first use).
    private static let available: Bool = lectern_curl_load() != 0

    /// Header names are HTTP tokens and values hold no line break or NUL, and the URL no
    /// control character: text from outside (a license's link, a server's answer, an option)
    /// can never add a header or a request of its own.
    static func checkHeadersAndURL(_ request: CurlRequest) throws(CurlError) {
        func isToken(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
            default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
        }
        for header in request.headers {
            guard !header.name.isEmpty, header.name.utf8.allSatisfy(isToken) else {
                throw .failed("refused a request header with an invalid name")
            }
            guard !header.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
                throw .failed("refused the request header \(header.name): its value holds a line break")
            }
        }
        guard !request.url.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .failed("refused a URL holding control characters")
        }
    }

    /// Whole milliseconds for libcurl from a duration in seconds given from outside: 0 (no
    /// limit, for libcurl) when it is not a positive finite number, at most a million seconds;
    /// `Int(_:)` would trap on `1e300`.
    static func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int((min(seconds, 1_000_000) * 1000).rounded(.up))
    }

    /// Performs `request`. Bytes of the body are handed to `onData` as they arrive when it is
    /// given (and then not accumulated in the response); returning false from it, or from
    /// `onProgress`, cancels the transfer.
    public static func perform(
        _ request: CurlRequest,
        onData: ((UnsafeRawBufferPointer) -> Bool)? = nil,
        onProgress: ((_ received: Int64, _ expected: Int64?) -> Bool)? = nil
    ) throws(CurlError) -> CurlResponse {
        guard available else { throw .failed("libcurl (libcurl4) is not installed") }
        try Self.checkHeadersAndURL(request)
        guard let handle = lectern_curl_easy_init() else { throw .failed("libcurl could not start") }
        defer { lectern_curl_easy_cleanup(handle) }

        let sink = TransferSink(limit: request.maxBodySize, onData: onData, onProgress: onProgress, connectsTo: request.connectsTo)
        let context = Unmanaged.passUnretained(sink).toOpaque()

        lectern_curl_set_string(handle, CURLOPT_URL, request.url)
        lectern_curl_set_long(handle, CURLOPT_NOSIGNAL, 1)
        lectern_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, request.followRedirects ? 1 : 0)
        lectern_curl_set_long(handle, CURLOPT_MAXREDIRS, 10)
        lectern_curl_set_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout))
        lectern_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, max(Self.milliseconds(request.connectTimeout), 1))
        if request.stallTimeout > 0 {
            // Less than one byte a second for that long: the transfer has stalled.
            lectern_curl_set_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1)
            lectern_curl_set_long(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int(request.stallTimeout.rounded(.up))))
        }
        lectern_curl_set_string(handle, CURLOPT_USERAGENT, "Lectern/0.1")
        lectern_curl_set_string(handle, CURLOPT_ACCEPT_ENCODING, "")
        // Only HTTP(S): a hostile manifest must not make us read file:// or other schemes.
        lectern_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        lectern_curl_set_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")

        switch request.method {
        case "GET": break
        case "HEAD": lectern_curl_set_long(handle, CURLOPT_NOBODY, 1)
        default: lectern_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method)
        }
        var bodyCopy = request.body ?? (request.method == "POST" || request.method == "PUT" ? [] : nil)
        if bodyCopy != nil {
            lectern_curl_set_long(handle, CURLOPT_POSTFIELDSIZE, bodyCopy!.count)
            lectern_curl_set_long(handle, CURLOPT_POST, 1)
            if request.method != "POST" { lectern_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, request.method) }
        }

        var headerList: UnsafeMutablePointer<curl_slist>? = nil
        for header in request.headers {
            headerList = lectern_curl_slist_append(headerList, "\(header.name): \(header.value)")
        }
        defer { lectern_curl_slist_free_all(headerList) }
        if let headerList { lectern_curl_set_slist(handle, CURLOPT_HTTPHEADER, headerList) }

        lectern_curl_set_write_function(handle, CURLOPT_WRITEFUNCTION, { data, size, count, context in
            let sink = Unmanaged<TransferSink>.fromOpaque(context!).takeUnretainedValue()
            return sink.receive(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        })
        lectern_curl_set_pointer(handle, CURLOPT_WRITEDATA, context)
        lectern_curl_set_write_function(handle, CURLOPT_HEADERFUNCTION, { data, size, count, context in
            let sink = Unmanaged<TransferSink>.fromOpaque(context!).takeUnretainedValue()
            sink.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
            return size * count
        })
        lectern_curl_set_pointer(handle, CURLOPT_HEADERDATA, context)
        lectern_curl_set_long(handle, CURLOPT_NOPROGRESS, 0)
        lectern_curl_set_progress_function(handle, { context, total, now, _, _ in
            let sink = Unmanaged<TransferSink>.fromOpaque(context!).takeUnretainedValue()
            return sink.progress(received: Int64(now), expected: total > 0 ? Int64(total) : nil) ? 0 : 1
        })
        lectern_curl_set_pointer(handle, CURLOPT_XFERINFODATA, context)
        if request.connectsTo != nil {
            lectern_curl_set_opensocket_function(handle, { context, _, address in
                let sink = Unmanaged<TransferSink>.fromOpaque(context!).takeUnretainedValue()
                return address.map(sink.openSocket) ?? CURL_SOCKET_BAD
            })
            lectern_curl_set_pointer(handle, CURLOPT_OPENSOCKETDATA, context)
        }

        let code: CURLcode = withExtendedLifetime(sink) {
            if var body = bodyCopy {
                return body.withUnsafeMutableBytes { bytes in
                    lectern_curl_set_pointer(handle, CURLOPT_POSTFIELDS, bytes.baseAddress)
                    return lectern_curl_easy_perform(handle)
                }
            }
            return lectern_curl_easy_perform(handle)
        }
        bodyCopy = nil

        if sink.overflowed { throw .tooLarge(request.maxBodySize) }
        if code != CURLE_OK, !sink.refused.isEmpty { throw .addressRefused(sink.refused.joined(separator: ", ")) }
        guard code == CURLE_OK else {
            let message = String(cString: lectern_curl_easy_strerror(code))
            switch code {
            case CURLE_OPERATION_TIMEDOUT: throw .timedOut
            case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
                throw .cannotConnect(message)
            case CURLE_ABORTED_BY_CALLBACK, CURLE_WRITE_ERROR: throw .cancelled
            default: throw .failed(message)
            }
        }
        var status = 0
        lectern_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>? = nil
        lectern_curl_get_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        return CurlResponse(statusCode: status, headers: sink.headers, body: sink.body,
                            effectiveURL: effective.map { String(cString: $0) } ?? request.url)
    }
}

/// Collects what libcurl delivers during one transfer.
private final class TransferSink {
    let limit: Int
    let onData: ((UnsafeRawBufferPointer) -> Bool)?
    let onProgress: ((Int64, Int64?) -> Bool)?
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var received = 0
    var overflowed = false
    let connectsTo: (@Sendable ([UInt8]) -> Bool)?
    /// The addresses `connectsTo` refused, in text form.
    var refused: [String] = []

    init(limit: Int, onData: ((UnsafeRawBufferPointer) -> Bool)?, onProgress: ((Int64, Int64?) -> Bool)?,
         connectsTo: (@Sendable ([UInt8]) -> Bool)?) {
        self.limit = limit
        self.onData = onData
        self.onProgress = onProgress
        self.connectsTo = connectsTo
    }

    /// libcurl's socket for one address it is about to connect to: none (the attempt fails)
    /// when ``connectsTo`` refuses the address, or when it is neither IPv4 nor IPv6.
    func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let family = address.pointee.family
        let socketAddress = UnsafeRawPointer(address) + MemoryLayout<curl_sockaddr>.offset(of: \.addr)!
        var bytes: [UInt8] = []
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if family == AF_INET {
            var ip = socketAddress.loadUnaligned(as: sockaddr_in.self).sin_addr
            bytes = withUnsafeBytes(of: ip) { Array($0) }
            inet_ntop(AF_INET, &ip, &text, socklen_t(text.count))
        } else if family == AF_INET6 {
            var ip = socketAddress.loadUnaligned(as: sockaddr_in6.self).sin6_addr
            bytes = withUnsafeBytes(of: ip) { Array($0) }
            inet_ntop(AF_INET6, &ip, &text, socklen_t(text.count))
        }
        guard !bytes.isEmpty, connectsTo?(bytes) ?? true else {
            let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            refused.append(bytes.isEmpty ? "an address of family \(family)" : address)
            return CURL_SOCKET_BAD
        }
        return socket(family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue), address.pointee.protocol)
    }

    func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        received += bytes.count
        if let onData { return onData(bytes) }
        guard received <= limit else { overflowed = true; return false }
        body.append(contentsOf: bytes)
        return true
    }

    func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            // A new response (after a redirect or 100-continue): keep only the final headers.
            headers.removeAll()
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: " \t\r\n")
        headers.append((name, value))
    }

    func progress(received: Int64, expected: Int64?) -> Bool {
        onProgress?(received, expected) ?? true
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
