"""Library-wide full-text search benchmark (issue #15): a generated library of 1,000 EPUBs,
indexed with `lectern index`, then queried with `lectern search`.

Each book has 10 chapters of about 12 KB of text drawn from a 5,000-word vocabulary with a
Zipf-like distribution (so common and rare words behave as in real prose); "quillwort" occurs
in 5 books only, "lantern" in every one.
"""
import os
import random
import subprocess
import time
import zipfile

from calibre_peer import bench_calibre

BOOKS = 1000
CHAPTERS = 10
WORDS_PER_CHAPTER = 2000


def vocabulary(rng):
    syllables = ["ka", "lo", "mi", "ren", "sa", "tor", "ve", "ul", "bri", "an", "cho", "de", "fa", "gli", "ho", "ish"]
    words = set()
    while len(words) < 5000:
        words.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def chapter_xhtml(title, paragraphs):
    body = "".join(f"<p>{p}</p>\n" for p in paragraphs)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head>'
            f"<title>{title}</title></head><body><h1>{title}</h1>\n{body}</body></html>\n")


def make_book(path, index, words, weights, rng):
    chapters = []
    for number in range(CHAPTERS):
        text = rng.choices(words, weights=weights, k=WORDS_PER_CHAPTER)
        text[rng.randrange(len(text))] = "lantern"
        if index % 200 == 0 and number == 3:
            text[rng.randrange(len(text))] = "quillwort"
        paragraphs = [" ".join(text[i:i + 120]).capitalize() + "." for i in range(0, len(text), 120)]
        chapters.append(chapter_xhtml(f"Chapter {number + 1}", paragraphs))
    identifier = f"urn:uuid:00000000-0000-4000-8000-{index:012d}"
    manifest = "".join(f'<item id="c{n}" href="c{n}.xhtml" media-type="application/xhtml+xml"/>' for n in range(CHAPTERS))
    spine = "".join(f'<itemref idref="c{n}"/>' for n in range(CHAPTERS))
    opf = ('<?xml version="1.0" encoding="UTF-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
           'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">'
           f'<dc:identifier id="id">{identifier}</dc:identifier><dc:title>Book {index:04d}</dc:title>'
           f'<dc:creator>Author {index % 97}</dc:creator><dc:language>en</dc:language>'
           '<meta property="dcterms:modified">2026-01-01T00:00:00Z</meta></metadata>'
           f'<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>{manifest}</manifest>'
           f"<spine>{spine}</spine></package>")
    nav = ('<?xml version="1.0" encoding="UTF-8"?>\n<html xmlns="http://www.w3.org/1999/xhtml" '
           'xmlns:epub="http://www.idpf.org/2007/ops"><head><title>Contents</title></head><body>'
           '<nav epub:type="toc"><ol>' + "".join(f'<li><a href="c{n}.xhtml">Chapter {n + 1}</a></li>' for n in range(CHAPTERS))
           + "</ol></nav></body></html>")
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("META-INF/container.xml",
                         '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                         '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
                         "</rootfiles></container>", compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("OEBPS/content.opf", opf, compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr("OEBPS/nav.xhtml", nav, compress_type=zipfile.ZIP_DEFLATED)
        for number, chapter in enumerate(chapters):
            archive.writestr(f"OEBPS/c{number}.xhtml", chapter, compress_type=zipfile.ZIP_DEFLATED)
    return sum(len(c.encode()) for c in chapters)


def make_library(work):
    folder = os.path.join(work, f"library-{BOOKS}")
    marker = os.path.join(folder, ".complete")
    if os.path.exists(marker):
        return folder, int(open(marker).read())
    os.makedirs(folder, exist_ok=True)
    rng = random.Random(15)
    words = vocabulary(rng)
    weights = [1 / (rank + 1) for rank in range(len(words))]
    total = 0
    for index in range(BOOKS):
        total += make_book(os.path.join(folder, f"book-{index:04d}.epub"), index, words, weights, rng)
    with open(marker, "w") as out:
        out.write(str(total))
    return folder, total


def index_with_peak(lectern, env):
    """Runs `lectern index` once under GNU time: (seconds, peak RSS in KB, 0 without GNU time)."""
    wrapped = os.path.exists("/usr/bin/time")
    cmd = (["/usr/bin/time", "-f", "bench-peak-rss %M"] if wrapped else []) + [lectern, "index"]
    start = time.monotonic()
    indexed = subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
    seconds = time.monotonic() - start
    if indexed.returncode != 0:
        raise SystemExit(f"lectern index failed: {indexed.stderr[-2000:]}")
    peaks = [line for line in indexed.stderr.splitlines() if line.startswith("bench-peak-rss ")]
    return seconds, int(peaks[-1].split()[1]) if peaks else 0


def bench_library_search(lectern, runs, env, measure, peak_rss_kb):
    """Rows: indexing, and queries, over the generated library (imported without indexing
    first); then calibre on part of the same books, as the peer."""
    work = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bench-work")
    folder, text_bytes = make_library(work)
    rows, notes = [], []
    imported = subprocess.run([lectern, "import", "--no-index", folder], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    if imported.returncode != 0:
        raise SystemExit(f"import failed: {imported.stderr[-2000:]}")
    seconds, peak = index_with_peak(lectern, env)
    index_figures = {"median_ms": seconds * 1000, "min_ms": seconds * 1000, "max_ms": seconds * 1000,
                     "peak_rss_kb": peak, "runs": 1}
    rows.append((f"Library search: index {BOOKS:,} books ({text_bytes / 1e6:.0f} MB of XHTML) with `lectern index`, "
                 "after `lectern import --no-index`", index_figures, "< 60 s"))
    common = vocabulary(random.Random(15))[:2]
    queries = [("a word in 5 books", "quillwort"), ("a word in every book", "lantern"),
               ("the two most common words", " ".join(common)), ("an absent word", "zzyzx")]
    for label, query in queries:
        expected = 1 if query == "zzyzx" else 0
        figures = measure([lectern, "search", query], runs, env, expected_status=expected)
        rows.append((f"Library search over {BOOKS:,} books: {label} (`lectern search {query}`, whole process)",
                     figures, "< 50 ms"))
    size = os.path.getsize(os.path.join(env["XDG_DATA_HOME"], "lectern", "library.sqlite"))
    notes.append(f"The library database with the full-text index of {BOOKS:,} books is {size / 1e6:.0f} MB "
                 f"({text_bytes / 1e6:.0f} MB of XHTML indexed); `lectern index` took {seconds:.1f} s (target < 60 s).")
    # calibre starts its Python for each query (about a second): three runs of each.
    peer_rows, peer_notes = bench_calibre(folder, BOOKS, queries, min(runs, 3), env, measure)
    return rows + peer_rows, notes + peer_notes
