import Foundation
import LibCurl
import Testing
import TestSupport

/// libcurl is loaded at run time: a request must still work end to end.
@Suite struct CurlLoadingTests {
    @Test func loadsLibcurlAndPerformsARequest() throws {
        let root = Fixtures.temporaryDirectory("curl-root")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: root + "/a.txt"))
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let port = Int.random(in: 20000..<40000)
        server.arguments = ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", root]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer { server.terminate() }
        var response: CurlResponse?
        for _ in 0..<100 {
            if let answer = try? Curl.perform(CurlRequest(url: "http://127.0.0.1:\(port)/a.txt", timeout: 2)) {
                response = answer
                break
            }
            usleep(50_000)
        }
        let answer = try #require(response)
        #expect(answer.statusCode == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "hello")
        #expect(answer.header("Content-Length") == "5")
    }
}
