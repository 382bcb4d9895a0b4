import Shared
import Testing

@Suite struct DiagnosticsTests {
    @Test(arguments: [
        ("https://example.org/feed?token=abc#top", "https://example.org/feed"),
        ("https://user:secret@example.org/a/b", "https://example.org/a/b"),
        ("http://127.0.0.1:8080/licenses/1/status", "http://127.0.0.1:8080/licenses/1/status"),
        ("https://example.org/a@b/c", "https://example.org/a@b/c"),
        ("https://example.org/?q=1", "https://example.org/"),
    ])
    func aLoggedURLKeepsNoQueryFragmentOrUserInformation(url: String, shown: String) {
        #expect(Diagnostics.redacted(url) == shown)
    }
}
