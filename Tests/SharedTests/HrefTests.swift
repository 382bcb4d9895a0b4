@testable import Shared
import Testing

@Suite struct HrefTests {
    @Test(arguments: [
        // Relative to a package document.
        ("c2.xhtml", "OEBPS/text/c1.xhtml", "OEBPS/text/c2.xhtml"),
        ("../images/a.png", "OEBPS/text/c1.xhtml", "OEBPS/images/a.png"),
        ("./a.png", "OEBPS/c1.xhtml", "OEBPS/a.png"),
        ("sub/./x/../a.png", "OEBPS/c1.xhtml", "OEBPS/sub/a.png"),
        ("a/b/.", "OEBPS/c1.xhtml", "OEBPS/a/b/"),
        ("a/b/..", "OEBPS/c1.xhtml", "OEBPS/a/"),
        ("x", "OEBPS/", "OEBPS/x"),
        ("x", "", "x"),
        ("a/b/../c", "", "a/c"),
        ("x", "c1.xhtml", "x"),
        // `..` never climbs above the root.
        ("../../../../etc/passwd", "OEBPS/text/c1.xhtml", "etc/passwd"),
        ("..", "c1.xhtml", ""),
        ("../", "OEBPS/c1.xhtml", ""),
        ("a/../../../b", "", "b"),
        ("/../../b", "OEBPS/c1.xhtml", "b"),
        // Root-relative hrefs are relative to the package root.
        ("/images/a.png", "OEBPS/c1.xhtml", "images/a.png"),
        // Fragments and queries.
        ("#note", "OEBPS/c1.xhtml#x", "OEBPS/c1.xhtml#note"),
        ("#note", "OEBPS/c1.xhtml?q=1#x", "OEBPS/c1.xhtml?q=1#note"),
        ("c2.xhtml?q=1#f", "OEBPS/c1.xhtml", "OEBPS/c2.xhtml?q=1#f"),
        ("../c2.xhtml#f/../g", "OEBPS/t/c1.xhtml", "OEBPS/c2.xhtml#f/../g"),
        ("?q=2", "OEBPS/c1.xhtml?q=1#x", "OEBPS/c1.xhtml?q=2"),
        ("?q=2#f", "OEBPS/c1.xhtml", "OEBPS/c1.xhtml?q=2#f"),
        ("", "OEBPS/c1.xhtml#x", "OEBPS/c1.xhtml"),
        ("c2.xhtml", "OEBPS/c1.xhtml?a=b/c#d/e", "OEBPS/c2.xhtml"),
        // Percent-encoding is kept.
        ("content%20001.xhtml", "EPUB/nav.xhtml", "EPUB/content%20001.xhtml"),
        ("  spaced.xhtml ", "EPUB/nav.xhtml", "EPUB/spaced.xhtml"),
        // Absolute bases.
        ("c.mp3", "https://example.com/books/manifest.json", "https://example.com/books/c.mp3"),
        ("../c.mp3", "https://example.com/books/manifest.json", "https://example.com/c.mp3"),
        ("../../../c.mp3", "https://example.com/books/m.json", "https://example.com/c.mp3"),
        ("/root.mp3", "https://example.com/books/m.json", "https://example.com/root.mp3"),
        ("a.mp3", "https://example.com", "https://example.com/a.mp3"),
        ("a.mp3", "https://example.com/m.json?sig=a/b", "https://example.com/a.mp3"),
        ("//cdn.example.org/x.mp3", "https://example.com/m.json", "https://cdn.example.org/x.mp3"),
        ("#t=10", "https://example.com/m.json", "https://example.com/m.json#t=10"),
        ("?page=2", "https://example.com/feed?page=1", "https://example.com/feed?page=2"),
        // Absolute hrefs stay as they are.
        ("https://other.org/a/../b", "OEBPS/c1.xhtml", "https://other.org/a/../b"),
        ("urn:isbn:9780000000001", "OEBPS/c1.xhtml", "urn:isbn:9780000000001"),
        ("mailto:a@b.c", "https://example.com/", "mailto:a@b.c"),
    ])
    func resolve(href: String, base: String, expected: String) {
        #expect(Href.resolve(href, against: base) == expected)
    }

    @Test func schemes() {
        #expect(Href.scheme(of: "https://a/b") == "https")
        #expect(Href.scheme(of: "urn:isbn:1") == "urn")
        #expect(Href.scheme(of: "x-my+scheme.1:rest") == "x-my+scheme.1")
        #expect(Href.scheme(of: "OEBPS/a.xhtml") == nil)
        #expect(Href.scheme(of: "1abc:x") == nil)
        #expect(Href.scheme(of: ":x") == nil)
        #expect(Href.scheme(of: "a/b:c") == nil)
        #expect(Href.scheme(of: "é:x") == nil)
        #expect(Href.isHTTP("HTTP://EXAMPLE.COM/"))
        #expect(Href.isHTTP("https://example.com/"))
        #expect(!Href.isHTTP("ftp://example.com/"))
        #expect(!Href.isHTTP("file:///etc/passwd"))
        #expect(!Href.isHTTP("httpx"))
    }

    @Test(arguments: [
        ("EPUB/content%20001.xhtml#note-1", "EPUB/content 001.xhtml"),
        ("a.xhtml?x=1#f", "a.xhtml"),
        ("/OEBPS/a.xhtml", "OEBPS/a.xhtml"),
        ("OEBPS/./text/../a.xhtml", "OEBPS/a.xhtml"),
        ("../../etc/passwd", "etc/passwd"),
        ("..%2F..%2Fetc%2Fpasswd", "etc/passwd"),
        ("%2e%2e/%2E%2E/etc/passwd", "etc/passwd"),
        ("a%2Fb", "a/b"),
        ("xhtml/%E4%B8%80.xhtml", "xhtml/一.xhtml"),
        ("xhtml/一.xhtml", "xhtml/一.xhtml"),
        ("chapitre%C3%A9.html", "chapitreé.html"),
        ("100%25.html", "100%.html"),
        // Malformed escapes are kept as written.
        ("a%zz.html", "a%zz.html"),
        ("a%.html", "a%.html"),
        ("a%4", "a%4"),
        ("a%+1.html", "a%+1.html"),
        ("a%-1.html", "a%-1.html"),
        // Escapes that are not UTF-8.
        ("caf%E9.html", "caf%E9.html"),
        ("", ""),
    ])
    func packagePath(href: String, expected: String) {
        #expect(Href.path(of: href) == expected)
    }

    @Test func absoluteURLsHaveNoPackagePath() {
        #expect(Href.path(of: "https://example.com/a") == nil)
        #expect(Href.path(of: "urn:x") == nil)
    }

    @Test func percentDecoding() {
        #expect(Href.percentDecoded("a%20b") == "a b")
        #expect(Href.percentDecoded("plain") == "plain")
        #expect(Href.percentDecoded("%C3%A9%e2%82%ac") == "é€")
        #expect(Href.percentDecoded("%") == nil)
        #expect(Href.percentDecoded("%2") == nil)
        #expect(Href.percentDecoded("%G0") == nil)
        #expect(Href.percentDecoded("%+1") == nil)
        #expect(Href.percentDecoded("%-1") == nil)
        #expect(Href.percentDecoded("% 1") == nil)
        #expect(Href.percentDecoded("%FF") == nil)
        #expect(Href.percentDecoded("%C3") == nil)
        #expect(Href.percentDecoded("a%00b") == "a\u{0}b")
    }

    @Test func fragments() {
        #expect(Href.fragment(of: "a.xhtml#note-1") == "note-1")
        #expect(Href.fragment(of: "a.xhtml#") == "")
        #expect(Href.fragment(of: "a.xhtml") == nil)
        #expect(Href.removingFragment("a.xhtml#x#y") == "a.xhtml")
    }

    @Test(arguments: [
        ("EPUB/content 001.xhtml", "EPUB/content%20001.xhtml"),
        ("xhtml/一.xhtml", "xhtml/%E4%B8%80.xhtml"),
        ("a#b?.html", "a%23b%3F.html"),
        ("100%.html", "100%25.html"),
        ("images/夏目漱石.jpg", "images/%E5%A4%8F%E7%9B%AE%E6%BC%B1%E7%9F%B3.jpg"),
        ("a-b_c.d~e/f", "a-b_c.d~e/f"),
    ])
    func fromPath(path: String, expected: String) {
        #expect(Href.fromPath(path) == expected)
    }

    @Test(arguments: [
        "EPUB/content 001.xhtml", "100%.html", "a#b?c.html", "x/y z/%41", "C:fonts/a.otf", "a:b.xhtml",
        "xhtml/一.xhtml", "emoji 😀/[1].png", "OEBPS/chapter+1;v=2,3.xhtml", "\\back\\slash", "tab\there",
    ])
    func fromPathRoundTripsThroughPath(path: String) {
        let href = Href.fromPath(path)
        #expect(!Href.isAbsoluteURL(href), "\(href) must stay a relative href")
        #expect(Href.path(of: href) == path)
        #expect(Href.resolve(href, against: "") == href)
    }
}

@Suite struct URITemplateTests {
    // RFC 6570 §1.2 and §3.2 variables.
    static let variables: [String: String] = [
        "var": "value", "hello": "Hello World!", "path": "/foo/bar", "empty": "", "x": "1024", "y": "768",
        "half": "50%", "dub": "me/too", "who": "fred", "base": "http://example.com/home/",
    ]

    @Test(arguments: [
        // Level 1
        ("{var}", "value"),
        ("{hello}", "Hello%20World%21"),
        ("{half}", "50%25"),
        ("O{empty}X", "OX"),
        ("O{undef}X", "OX"),
        ("{path}", "%2Ffoo%2Fbar"),
        ("{dub}", "me%2Ftoo"),
        // Level 2
        ("{+var}", "value"),
        ("{+hello}", "Hello%20World!"),
        ("{+half}", "50%25"),
        ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
        ("{+base}index", "http://example.com/home/index"),
        ("{+path}/here", "/foo/bar/here"),
        ("here?ref={+path}", "here?ref=/foo/bar"),
        ("{#var}", "#value"),
        ("{#hello}", "#Hello%20World!"),
        ("{#half}", "#50%25"),
        ("X{#var}", "X#value"),
        ("X{#undef}", "X"),
        // Level 3
        ("map?{x,y}", "map?1024,768"),
        ("{x,hello,y}", "1024,Hello%20World%21,768"),
        ("{+x,hello,y}", "1024,Hello%20World!,768"),
        ("{+path,x}/here", "/foo/bar,1024/here"),
        ("{#x,hello,y}", "#1024,Hello%20World!,768"),
        ("{#path,x}/here", "#/foo/bar,1024/here"),
        ("X{.var}", "X.value"),
        ("X{.x,y}", "X.1024.768"),
        ("{/var}", "/value"),
        ("{/var,x}/here", "/value/1024/here"),
        ("{/var,undef}", "/value"),
        ("{;x,y}", ";x=1024;y=768"),
        ("{;x,y,empty}", ";x=1024;y=768;empty"),
        ("{?x,y}", "?x=1024&y=768"),
        ("{?x,y,empty}", "?x=1024&y=768&empty="),
        ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
        ("{&x,y,empty}", "&x=1024&y=768&empty="),
        // Undefined variables are omitted, with their operator when all are.
        ("{?undef}", ""),
        ("{?x,undef}", "?x=1024"),
        ("{?undef,y}", "?y=768"),
        ("{&undef}", ""),
        ("{;undef}", ""),
        ("{.undef}", ""),
        ("{/undef}", ""),
        ("{+undef}", ""),
        // Names with spaces around them, and an unclosed expression kept as text.
        ("{? x , y }", "?x=1024&y=768"),
        ("a{var", "a{var"),
        ("no expressions", "no expressions"),
    ])
    func rfc6570Examples(template: String, expected: String) {
        #expect(URITemplate(template).expand(Self.variables) == expected)
    }

    @Test func reservedAndNonASCIICharactersArePercentEncoded() {
        let values = ["q": "a b&c=d/é?#[]@!$'()*+,;:%", "id": "urn:uuid:1234"]
        #expect(URITemplate("search{?q}").expand(values)
            == "search?q=a%20b%26c%3Dd%2F%C3%A9%3F%23%5B%5D%40%21%24%27%28%29%2A%2B%2C%3B%3A%25")
        #expect(URITemplate("https://lsd.example/register{?id}").expand(values)
            == "https://lsd.example/register?id=urn%3Auuid%3A1234")
        #expect(URITemplate("{+q}").expand(values) == "a%20b&c=d/%C3%A9?#[]@!$'()*+,;:%25")
    }

    @Test func reservedExpansionKeepsPercentEncodedTriplets() {
        // RFC 6570 §3.2.3: `+` and `#` pass pct-encoded triplets through.
        #expect(URITemplate("{+x}").expand(["x": "a%20b%zz"]) == "a%20b%25zz")
        #expect(URITemplate("{#x}").expand(["x": "%C3%A9"]) == "#%C3%A9")
        #expect(URITemplate("{x}").expand(["x": "a%20b"]) == "a%2520b")
    }

    @Test func variablesInOrder() {
        #expect(URITemplate("https://x/renew{?end,id,name}{&extra}").variables == ["end", "id", "name", "extra"])
        #expect(URITemplate("plain").variables == [])
    }

    @Test func templatedLinksExpand() {
        let link = Link(href: "https://lsd.example/licenses/1/renew{?end,id,name}", templated: true)
        let expanded = link.expanded(with: ["id": "device 1", "name": "Lectern"])
        #expect(expanded.href == "https://lsd.example/licenses/1/renew?id=device%201&name=Lectern")
        #expect(!expanded.templated)
        let plain = Link(href: "a{b}.html")
        #expect(plain.expanded(with: ["b": "x"]).href == "a{b}.html")
    }
}

/// The byte-wise fast paths of ``Href`` (scheme, plain package paths) give what the general
/// algorithm gives, on hrefs made of the pieces that matter to it.
@Suite struct HrefFastPathTests {
    static let pieces = ["a", "Ch1", "/", ".", "..", "#", "?", "%20", "%zz", "é", ":", "x+y", "-", "1", "//", "e\u{301}"]

    /// The general algorithm, as it was before the fast paths.
    static func referencePath(_ href: String) -> String? {
        if referenceScheme(href) != nil { return nil }
        var raw = href
        if let hash = raw.firstIndex(of: "#") { raw = String(raw[..<hash]) }
        if let mark = raw.firstIndex(of: "?") { raw = String(raw[..<mark]) }
        let decoded = Href.percentDecoded(raw) ?? raw
        var path = Href.removeDotSegments(decoded.hasPrefix("/") ? decoded : "/" + decoded)
        while path.hasPrefix("/") { path.removeFirst() }
        return path
    }

    static func referenceScheme(_ href: String) -> String? {
        guard let colon = href.firstIndex(of: ":") else { return nil }
        let candidate = href[..<colon]
        guard let first = candidate.first, first.isASCII, first.isLetter,
              candidate.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return String(candidate)
    }

    @Test func fastPathsAgreeWithTheGeneralAlgorithm() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let href = (0..<Int.random(in: 0...6, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            #expect(Href.path(of: href) == Self.referencePath(href), "\(href)")
            #expect(Href.scheme(of: href) == Self.referenceScheme(href), "\(href)")
        }
        for plain in ["OEBPS/ch0001.xhtml", "a/...b/c", "x..y/.z"] { #expect(Href.isPlainPath(plain), "\(plain)") }
        for other in ["./a", "a/../b", "a/.", "/a", "a#b", "a?b", "a%20b", "", "..", "a/.."] { #expect(!Href.isPlainPath(other), "\(other)") }
    }
}
