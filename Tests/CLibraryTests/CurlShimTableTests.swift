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
