import Shared
@testable import Streamer
import Testing
import TestSupport

/// The same creator listed twice showed `אורי עידן, אורי עידן` (#29 item 14).
@Suite struct DoubledAuthorTests {
    @Test func aCreatorListedTwiceIsOneAuthor() throws {
        let metadata = """
            <dc:title>T</dc:title><dc:identifier id="id">urn:x</dc:identifier>
            <dc:creator id="c1">אורי עידן</dc:creator>
            <meta refines="#c1" property="role" scheme="marc:relators">aut</meta>
            <dc:creator>אורי עידן</dc:creator>
            <meta property="dcterms:creator">אורי עידן</meta>
            <dc:creator opf:file-as="Cohen, Dan">Dan Cohen</dc:creator>
            """
        let book = try EPUBTestSupport.parse(opf: EPUBTestSupport.opf(metadata: metadata),
                                             entries: [ZipBuilder.Entry("OPS/c1.xhtml", EPUBTestSupport.xhtml)])
        #expect(book.metadata.authors.map(\.name) == ["אורי עידן", "Dan Cohen"])
    }
}
