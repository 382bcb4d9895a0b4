"""A generated EPUB 3 for the benchmarks: the package frame the bench books share, so that each
bench script says only what its chapters hold."""
import zipfile

CONTAINER = ('<?xml version="1.0"?><container version="1.0" '
             'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
             '<rootfile full-path="OPS/package.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')


def chapter(title, body):
    """An XHTML chapter document holding `body`."""
    return ('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head>'
            f"<title>{title}</title></head><body>{body}</body></html>")


def write_epub(path, identifier, title, files, items, spine):
    """Writes an EPUB at `path`: `files` maps paths under OPS/ to their contents, `items` are the
    manifest's <item> elements and `spine` the ids read in order."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        book.writestr("META-INF/container.xml", CONTAINER)
        for name, data in files.items():
            book.writestr(f"OPS/{name}", data)
        itemrefs = "".join(f'<itemref idref="{idref}"/>' for idref in spine)
        book.writestr("OPS/package.opf", '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
                      'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
                      f'<dc:identifier id="id">{identifier}</dc:identifier><dc:title>{title}</dc:title>'
                      '<dc:language>en</dc:language><meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>'
                      f'<manifest>{"".join(items)}</manifest><spine>{itemrefs}</spine></package>')
    return path
