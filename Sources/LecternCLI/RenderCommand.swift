import ArgumentParser
import FoundationEssentials
import Shared
import TextLayout
import Pictures
#if canImport(Glibc)
import Glibc
#endif

/// `lectern render PATH [--href H] [--width N] [--justify] [--bidi M] [--images P --page N --height R]`:
/// prints the text of a publication
/// laid out exactly as the reader lays it out (same engine, same options), as plain text:
/// no colour, emphasis invisible (markers would change the layout), headings underlined
/// (`═` for h1, `─` for h2), list markers, `[image: …]`, tables with `│` borders, right-to-left
/// paragraphs right-aligned in visual order with Arabic letters shaped (`--bidi terminal`: in
/// logical order, unshaped, for terminals that reorder). One resource, or the whole reading order with a
/// blank line between resources.
///
/// With `--images`, the pages of a comic or a PDF (or the image `--href` names) are drawn as
/// pictures in the chosen protocol instead: what the reader shows, for scripts and tests.
///
/// Refused (exit 3) for restricted publications and for those whose rights limit copying:
/// rendering to standard output is copying.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print a publication's text laid out as the reader shows it.",
        discussion: """
            Exit status: 0 rendered, 1 some resources could not be rendered, 2 cannot be opened, \
            3 restricted or its rights limit copying.
            """
    )

    @Argument(help: "The publication file, folder or URL.", completion: .file())
    var path: String

    @Option(help: "Only this resource, as a path in the package (default: the whole reading order).")
    var href: String?

    @Option(help: "Text width in terminal cells (default: $COLUMNS, else 80).")
    var width: Int?

    @Flag(help: "Justify paragraphs to the full width.")
    var justify = false

    @Option(help: "Right-to-left text: lectern (visual order, Arabic shaped) or terminal (logical order, for terminals that reorder).")
    var bidi: BidiMode = .lectern

    @Option(help: "Draw pictures (comic and PDF pages, an image --href): auto, kitty, sixel, iterm, symbols or off (default: off, the text).")
    var images: PictureSetting = .off

    @Option(help: "Only this page of a PDF (its text, or with --images its picture) or a comic, from 1 (default: every page in order).")
    var page: Int?

    @Option(help: "With --images: fit each picture in this many rows (default: the full width, as many rows as it takes).")
    var height: Int?

    @OptionGroup var credentials: CredentialsOption

    func validate() throws {
        if let width, !(LayoutOptions.minimumWidth...10_000).contains(width) {
            throw ValidationError("--width must be between \(LayoutOptions.minimumWidth) and 10000")
        }
        if let height, !(1...10_000).contains(height) { throw ValidationError("--height must be between 1 and 10000") }
        if let page, page < 1 { throw ValidationError("--page counts from 1") }
    }

    func run() async throws {
        let opened = try await PublicationLoader().openForCommand(path, credentials: credentials)
        let publication = opened.publication
        defer { publication.close() }
        do {
            try RenderingPermission.checkExport(publication)
        } catch {
            // Copying limits are not a restriction: they have no advice.
            var restriction: ProtectionRestriction?
            if case .restricted(let refused) = error { restriction = refused }
            Output.error("\(path): \(error.userMessage)" + ProtectionAdvice.suffix(restriction))
            throw ExitStatus.restricted
        }
        let pictures = PictureRendering(setting: images, columns: width ?? Self.environmentColumns ?? 80, rows: height)
        if let pictures, try renderPictures(publication, with: pictures) {
            return
        }
        var options = LayoutOptions(width: width ?? Self.environmentColumns ?? 80, justify: justify)
        options.bidi = bidi
        // A PDF: its pages' text as the reader's text mode shows it.
        if pictures == nil, try renderPDFText(publication, options: options) { return }
        // With pictures, the images of the text are drawn where the reader draws them.
        let figures = pictures.flatMap { FigureRenderer(publication: publication, output: $0.output) }
        if let figures {
            options.pictureCell = LayoutOptions.PictureCellSize(width: figures.output.cell.width, height: figures.output.cell.height)
            options.maxPictureRows = height ?? 20
        }
        let loader = ContentDocumentLoader(publication: publication)
        let links: [Link]
        if let href {
            let path = Href.removingFragment(href)
            links = [publication.readingOrder.first(withHREF: path) ?? publication.resources.first(withHREF: path) ?? Link(href: path)]
        } else {
            links = publication.readingOrder
        }
        var failed = 0
        // Reading orders may list one file several times (with fragments): render it once.
        var rendered = Set<String>()
        for (number, link) in links.enumerated() where rendered.insert(link.path ?? Href.removingFragment(link.href)).inserted {
            do {
                // Block by block as the conversion makes them, line by line, written in
                // pieces: neither the chapter's text nor its lines are ever held whole, so a
                // huge chapter prints in bounded memory.
                var bytes: [UInt8] = number > 0 ? [0x0A] : []
                var stream = LayoutStream(options: options)
                var lines: [LayoutLine] = []
                var sizes: [String: TextDocument.PixelSize] = [:]
                _ = try loader.forEachBlock(of: link) { block, index, images in
                    if let figures {
                        for image in images where sizes[image.href] == nil {
                            if let size = figures.declaredSize(href: image.href) {
                                sizes[image.href] = TextDocument.PixelSize(width: size.width, height: size.height)
                            }
                        }
                    }
                    stream.append(block, index: index, images: images, sizes: sizes, to: &lines)
                    for line in lines {
                        if let row = line.picture, let figures {
                            // The picture at its first row; its other rows are in it.
                            guard row.row == 0 else { continue }
                            Output.text(String(decoding: bytes, as: UTF8.self))
                            bytes.removeAll(keepingCapacity: true)
                            Output.picture(PictureRendering.figure(row, with: figures))
                            continue
                        }
                        line.appendText(to: &bytes)
                        bytes.append(0x0A)
                        if bytes.count >= 1 << 16 {
                            Output.text(String(decoding: bytes, as: UTF8.self))
                            bytes.removeAll(keepingCapacity: true)
                        }
                    }
                    lines.removeAll(keepingCapacity: true)
                }
                Output.text(String(decoding: bytes, as: UTF8.self))
            } catch {
                Output.error("\(path): \(error.userMessage)")
                failed += 1
            }
        }
        Output.flush()
        if failed > 0 { throw ExitStatus.someFailed }
    }

    /// Draws the pages of a comic or a PDF, or the image `--href` names; false when the
    /// publication has no pictures to draw (its text is rendered instead).
    func renderPictures(_ publication: Publication, with pictures: PictureRendering) throws -> Bool {
        var failed = 0
        if let href, let link = publication.readingOrder.first(withHREF: Href.removingFragment(href)) ?? publication.resources.first(withHREF: Href.removingFragment(href)),
           link.mediaType?.isBitmap == true {
            do throws(PictureError) {
                Output.picture(try pictures.render(publication.get(link)).printed)
            } catch {
                Output.error("\(path): \(href): \(error)")
                failed += 1
            }
        } else if href == nil, let pages = PictureRendering.pages(of: publication) {
            if let page, page > pages.count {
                Output.error("\(path): there is no page \(page) (the publication has \(pages.count))")
                throw ExitStatus.someFailed
            }
            for index in page.map({ [$0 - 1] }) ?? Array(0..<pages.count) {
                do throws(PictureError) {
                    Output.picture(try pictures.render(pages, page: index).printed)
                } catch {
                    Output.error("\(path): page \(index + 1): \(error)")
                    failed += 1
                }
            }
        } else {
            return false
        }
        Output.flush()
        if failed > 0 { throw ExitStatus.someFailed }
        return true
    }

    /// `$COLUMNS`, when it holds a usable width.
    static var environmentColumns: Int? {
        guard let value = getenv("COLUMNS"), let columns = Int(String(cString: value)),
              (LayoutOptions.minimumWidth...10_000).contains(columns) else { return nil }
        return columns
    }
}

extension BidiMode: ExpressibleByArgument {}
