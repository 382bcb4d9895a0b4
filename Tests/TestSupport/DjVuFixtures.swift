import Foundation

/// DjVu documents made by djvulibre's own tools (djvulibre-bin: `cjb2`, `c44`, `djvm`,
/// `djvused`), with a hidden text layer, an outline and metadata — the input of the DjVu tests.
public enum DjVuFixtures {
    /// The words of the hidden text of the two pages of ``book(in:)``.
    public static let firstPageLines = ["Call me Ishmael. Some years ago,", "never mind how long precisely."]
    public static let firstPageSecondParagraph = "Whenever I find myself growing grim"
    public static let secondPageLine = "The second page speaks of whales."
    /// The grey of the band drawn across the second page (rows 50–89 of 400, at 100 dpi).
    public static let bandGrey: UInt8 = 40

    /// A bundled two-page document (a bitonal JB2 page and a greyscale IW44 page, 300 × 400
    /// pixels at 100 dpi) with a text layer on both pages, an outline ("Loomings" → page 1
    /// with "The Carpet-Bag" → page 2 inside it, "Nowhere" → a page that does not exist)
    /// and metadata (title, author). Returns its path.
    public static func book(in folder: String, name: String = "book.djvu", withText: Bool = true) throws -> String {
        let width = 300, height = 400
        // Page 1: a black bar in a bitonal picture (P4: one bit a pixel, 1 is black).
        let rowBytes = (width + 7) / 8
        var bits = Data()
        for y in 0..<height {
            for byte in 0..<rowBytes { bits.append(100 <= y && y < 140 && 2 <= byte && byte < 30 ? 0xFF : 0) }
        }
        try (Data("P4\n\(width) \(height)\n".utf8) + bits).write(to: URL(fileURLWithPath: folder + "/p1.pbm"))
        // Page 2: a dark band across a light grey page (P5).
        var grey = Data()
        for y in 0..<height { grey.append(contentsOf: [UInt8](repeating: 50 <= y && y < 90 ? bandGrey : 230, count: width)) }
        try (Data("P5\n\(width) \(height)\n255\n".utf8) + grey).write(to: URL(fileURLWithPath: folder + "/p2.pgm"))
        try Command.run(["cjb2", "-dpi", "100", "p1.pbm", "p1.djvu"], in: folder)
        try Command.run(["c44", "-dpi", "100", "p2.pgm", "p2.djvu"], in: folder)
        try Command.run(["djvm", "-c", name, "p1.djvu", "p2.djvu"], in: folder)
        let text1 = """
            (page 0 0 300 400
             (para 0 200 300 300
              (line 0 260 300 300 "\(firstPageLines[0])")
              (line 0 220 300 258 "\(firstPageLines[1])"))
             (para 0 100 300 180 (line 0 100 300 180 "\(firstPageSecondParagraph)")))
            """
        let text2 = "(page 0 0 300 400 (line 0 300 300 340 \"\(secondPageLine)\"))"
        let outline = "(bookmarks (\"Loomings\" \"#1\" (\"The Carpet-Bag\" \"#2\")) (\"Nowhere\" \"#99\"))"
        try text1.write(toFile: folder + "/t1.txt", atomically: true, encoding: .utf8)
        try text2.write(toFile: folder + "/t2.txt", atomically: true, encoding: .utf8)
        try outline.write(toFile: folder + "/outline.txt", atomically: true, encoding: .utf8)
        try "Title\t\"Moby Dick (abridged)\"\nAuthor\t\"Herman Melville\"\n".write(toFile: folder + "/meta.txt", atomically: true, encoding: .utf8)
        let script = (withText ? "select 1; set-txt t1.txt; select 2; set-txt t2.txt; select; " : "")
            + "set-outline outline.txt; set-meta meta.txt"
        try Command.run(["djvused", name, "-e", script, "-s"], in: folder)
        return folder + "/" + name
    }

    /// A single-page document (the bitonal page, with its text layer). Returns its path.
    public static func singlePage(in folder: String, name: String = "page.djvu") throws -> String {
        _ = try book(in: folder, name: "single-source.djvu")
        try Command.run(["cp", "p1.djvu", name], in: folder)
        let text = "(page 0 0 300 400 (line 0 260 300 300 \"\(firstPageLines[0])\"))"
        try text.write(toFile: folder + "/single.txt", atomically: true, encoding: .utf8)
        try Command.run(["djvused", name, "-e", "select 1; set-txt single.txt", "-s"], in: folder)
        return folder + "/" + name
    }
}
