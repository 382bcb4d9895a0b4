import CLecternCurl
import LibCurl
import Testing

@Suite struct CurlShimTableTests {
    /// libcurl loaded by the LibCurl module is loaded for every module that includes the shim:
    /// one function table for the program (a `static` inside the shim's inline function gave
    /// each module, and each Swift file compiled apart, a table of its own, never filled).
    @Test func oneFunctionTableForTheWholeProgram() {
        // Port 1 refuses at once: the request fails, but LibCurl has loaded libcurl.
        _ = try? Curl.perform(CurlRequest(url: "http://127.0.0.1:1/"))
        #expect(lectern_curl().pointee.loaded == 1)
        #expect(lectern_curl().pointee.easy_init != nil)
    }
}

@Suite struct CurlRequestCheckTests {
    /// Header values and URLs from outside cannot smuggle in a header or a second request.
    @Test func lineBreaksInHeadersAndControlsInURLsAreRefused() {
        let cases: [CurlRequest] = [
            CurlRequest(url: "http://127.0.0.1:1/", headers: [(name: "Authorization", value: "Bearer x\r\nX-Evil: 1")]),
            CurlRequest(url: "http://127.0.0.1:1/", headers: [(name: "Accept", value: "text/html\nX: y")]),
            CurlRequest(url: "http://127.0.0.1:1/", headers: [(name: "Bad Name", value: "x")]),
            CurlRequest(url: "http://127.0.0.1:1/", headers: [(name: "X-Evil:\r\nA", value: "x")]),
            CurlRequest(url: "http://127.0.0.1:1/a\r\nHost: evil"),
        ]
        for request in cases {
            #expect {
                _ = try Curl.perform(request)
            } throws: { error in
                guard case .failed(let reason)? = error as? CurlError else { return false }
                return reason.hasPrefix("refused")
            }
        }
        // A well-formed header goes through the check (the request then fails to connect).
        #expect {
            _ = try Curl.perform(CurlRequest(url: "http://127.0.0.1:1/", headers: [(name: "Accept", value: "text/html")]))
        } throws: { error in
            if case .failed(let reason)? = error as? CurlError { return !reason.hasPrefix("refused") }
            return true
        }
    }
}
