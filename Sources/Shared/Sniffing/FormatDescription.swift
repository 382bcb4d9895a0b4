
extension Format {
    /// A phrase naming the format for messages ("an OPDS 1 catalog feed", "an EPUB
    /// publication protected by Readium LCP").
    public static func describe(_ format: Format) -> String {
        let noun: String = switch format.kind {
        case .epub: "an EPUB publication"
        case .webpub: "a Readium Web Publication package"
        case .audiobook: "a Readium audiobook package"
        case .divina: "a Divina comic package"
        case .pdf: "a PDF document"
        case .lcpdf: "an LCP-protected PDF package"
        case .lcpa: "an LCP-protected audiobook package"
        case .cbz: "a comic book archive (CBZ)"
        case .zab: "a zipped audio book (ZAB)"
        case .lcpl: "a Readium LCP license"
        case .webpubManifest: "a Readium Web Publication manifest"
        case .audiobookManifest: "a Readium audiobook manifest"
        case .divinaManifest: "a Divina manifest"
        case .w3cWPUBManifest: "a W3C Web Publication manifest"
        case .lpf: "a W3C Lightweight Packaging Format file"
        case .opds1Feed: "an OPDS 1 catalog feed"
        case .opds1Entry: "an OPDS 1 catalog entry"
        case .opds2Feed: "an OPDS 2 catalog feed"
        case .opds2Publication: "an OPDS 2 publication entry"
        case .opdsAuthentication: "an OPDS authentication document"
        case .html: "an HTML document"
        case .xhtml: "an XHTML document"
        case .json: "a JSON document"
        case .xml: "an XML document"
        case .cbr: "a comic book archive (CBR, RAR)"
        case .cb7: "a comic book archive (CB7, 7z)"
        case .cbt: "a comic book archive (CBT, tar)"
        case .mobi: "a Mobipocket (MOBI) e-book"
        case .azw3: "a Kindle (AZW3/KF8) e-book"
        case .djvu: "a DjVu document"
        case .zip: "a ZIP archive"
        case .text: "a plain text file"
        case .markdown: "a Markdown document"
        case .fb2: "a FictionBook (FB2) document"
        case .fb2Zip: "a zipped FictionBook (FB2.zip) document"
        case .docx: "a Word (DOCX) document"
        case .odt: "an OpenDocument text (ODT)"
        case .rtf: "a Rich Text Format (RTF) document"
        }
        switch (format.isLCPProtected && format.kind != .lcpdf && format.kind != .lcpa, format.isAdeptProtected) {
        case (true, true): return noun + " protected by Readium LCP and Adobe ADEPT"
        case (true, false): return noun + " protected by Readium LCP"
        case (false, true): return noun + " protected by Adobe ADEPT"
        case (false, false): return noun
        }
    }
}
