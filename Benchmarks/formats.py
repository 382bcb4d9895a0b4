"""Issue 34's formats beside their peers: FB2, MOBI and AZW3 in the terminal reader beside epy
(time to the first page on screen in tmux, peak RSS), and DjVu's hidden text and a page picture
beside djvulibre's own `djvutxt` and `ddjvu`.

The FB2, MOBI and AZW3 books are one generated book (make_big_epub.py, 40 chapters of about
2,600 words, a novel's length) converted by calibre's `ebook-convert`, as the tests make
theirs; the DjVu book is made by djvulibre's `cjb2`, `djvm` and `djvused` (as
Tests/TestSupport/DjVuFixtures.swift does), 60 letter-size bitonal pages at 300 dpi, each with
a text layer. All are made once under bench-work/.
"""
import os
import shutil
import statistics
import subprocess
import sys

from tmux_reader import MARKER, TmuxReader

HERE = os.path.dirname(os.path.abspath(__file__))
CHAPTERS = 40
DJVU_PAGES = 60
PAGE_WIDTH, PAGE_HEIGHT = 2550, 3300  # letter size at 300 dpi
LINES_PER_PAGE = 40


def make_novel(work):
    """The generated EPUB and its FB2, MOBI and AZW3 conversions; ({format: path}, problem)."""
    epub = os.path.join(work, f"novel-{CHAPTERS}.epub")
    if not os.path.exists(epub):
        subprocess.run([sys.executable, os.path.join(HERE, "make_big_epub.py"), "--chapters", str(CHAPTERS), "--out", epub],
                       check=True, stdout=subprocess.DEVNULL)
    converter = shutil.which("ebook-convert")
    books = {}
    for extension in ("fb2", "mobi", "azw3"):
        path = os.path.join(work, f"novel-{CHAPTERS}.{extension}")
        if not os.path.exists(path):
            if converter is None:
                return books, "calibre's ebook-convert is not installed (make bench-deps)"
            partial = path + ".part." + extension
            result = subprocess.run([converter, epub, partial], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            if result.returncode != 0:
                return books, f"ebook-convert could not make the {extension.upper()} book"
            os.replace(partial, path)
        books[extension] = path
    return books, None


def first_page(command, env):
    """One reader process: milliseconds from its start to MARKER on screen, and its VmHWM (KB)
    read as soon as the page is seen."""
    reader = TmuxReader(command, env)
    try:
        painted, _ = reader.wait(lambda text: MARKER in text, timeout=300)
        return (painted - reader.started) * 1000, reader.peak_rss_kb()
    finally:
        reader.close()


def first_page_series(command, runs, fresh_env):
    """runs sessions after one warm-up (page cache), each with a fresh home."""
    times, peaks = [], []
    for index in range(runs + 1):
        elapsed, peak = first_page(command, fresh_env())
        if index:
            times.append(elapsed)
            peaks.append(peak)
    return {"median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times),
            "peak_rss_kb": max(peaks), "runs": len(times)}


def bench_kindle_and_fb2(lectern, runs, fresh_env, work, epy_command):
    rows, notes = [], []
    if shutil.which("tmux") is None:
        return rows, ["tmux is not installed: the FB2, MOBI and AZW3 books were not read."]
    books, problem = make_novel(work)
    if problem:
        notes.append(f"{problem}: no FB2/MOBI/AZW3 rows.")
        return rows, notes
    runs = max(3, min(runs, 10))
    epy, epy_problem = epy_command()
    if epy is None:
        notes.append(f"epy could not be installed ({' '.join(epy_problem)}): the formats were not read in epy.")
    comparisons = []
    for extension, path in books.items():
        name = os.path.basename(path)
        ours = first_page_series([lectern, "open", path], runs, fresh_env)
        rows.append((f"Reader: first painted page of the {CHAPTERS}-chapter book as {extension.upper()} in tmux "
                     f"(`lectern open {name}`)", ours, "faster than epy, less memory"))
        if epy:
            theirs = first_page_series(epy + [path], runs, fresh_env)
            rows.append((f"epy: first painted page of the same {extension.upper()} book, same window", theirs, ""))
            comparisons.append(f"{extension.upper()} {theirs['median_ms'] / max(ours['median_ms'], 0.001):.1f}× faster, "
                               f"peak RSS {ours['peak_rss_kb'] * 100 / max(theirs['peak_rss_kb'], 1):.0f}% of epy's")
    if comparisons:
        notes.append("First painted page beside epy (book converted from the same generated EPUB by ebook-convert): lectern "
                     + "; ".join(comparisons) + ". VmHWM of the reader process read as soon as the first words are seen.")
    return rows, notes


def make_djvu(work):
    """A bundled DjVu of DJVU_PAGES bitonal pages with a hidden text layer on each."""
    path = os.path.join(work, f"book-{DJVU_PAGES}-pages.djvu")
    if os.path.exists(path):
        return path
    folder = os.path.join(work, "djvu-pages")
    os.makedirs(folder, exist_ok=True)
    row_bytes = (PAGE_WIDTH + 7) // 8
    blank, ink = bytes(row_bytes), bytes([0] * 20 + [0xFF] * (row_bytes - 40) + [0] * 20)
    line_height = PAGE_HEIGHT // (LINES_PER_PAGE + 4)
    pages, script = [], []
    for page in range(1, DJVU_PAGES + 1):
        # A bar of ink where each line of text is, so the picture is not blank.
        rows = [ink if (y // (line_height // 2)) % 2 == 1 and 2 * line_height < y < PAGE_HEIGHT - 2 * line_height else blank
                for y in range(PAGE_HEIGHT)]
        with open(os.path.join(folder, "page.pbm"), "wb") as out:
            out.write(f"P4\n{PAGE_WIDTH} {PAGE_HEIGHT}\n".encode() + b"".join(rows))
        page_name = f"p{page:03d}.djvu"
        subprocess.run(["cjb2", "-dpi", "300", "page.pbm", page_name], cwd=folder, check=True)
        pages.append(page_name)
        lines = []
        for line in range(LINES_PER_PAGE):
            top = PAGE_HEIGHT - (line + 2) * line_height
            words = (f"{MARKER} " if page == 1 and line == 0 else "") + f"Page {page} line {line + 1} of the hidden text, " \
                "words enough to fill a printed line of a book."
            lines.append(f'(line 100 {top - line_height // 2} {PAGE_WIDTH - 100} {top} "{words}")')
        with open(os.path.join(folder, f"t{page}.txt"), "w") as out:
            out.write(f"(page 0 0 {PAGE_WIDTH} {PAGE_HEIGHT} " + " ".join(lines) + ")")
        script.append(f"select {page}; set-txt t{page}.txt")
    partial = path + ".part"
    subprocess.run(["djvm", "-c", partial, *pages], cwd=folder, check=True)
    subprocess.run(["djvused", partial, "-e", "; ".join(script), "-s"], cwd=folder, check=True)
    os.replace(partial, path)
    shutil.rmtree(folder, ignore_errors=True)
    return path


def bench_djvu(lectern, runs, env, work, measure):
    rows, notes = [], []
    missing = [tool for tool in ("cjb2", "djvm", "djvused", "djvutxt", "ddjvu") if shutil.which(tool) is None]
    if missing:
        return rows, [f"djvulibre-bin is not installed ({', '.join(missing)} missing): no DjVu rows."]
    book = make_djvu(work)
    name = os.path.basename(book)
    rows.append((f"DjVu hidden text of all {DJVU_PAGES} pages (`lectern text {name}`)",
                 measure([lectern, "text", book], runs, env), "as fast as djvutxt"))
    rows.append((f"Peer: `djvutxt {name}`", measure(["djvutxt", book], runs, env), ""))
    rows.append((f"DjVu page 30 (2550×3300 at 300 dpi) to a picture (`lectern render {name} --images symbols --page 30 "
                 "--width 120 --height 40`)",
                 measure([lectern, "render", book, "--images", "symbols", "--page", "30", "--width", "120", "--height", "40"],
                         runs, env), ""))
    rows.append(("Peer: the same page decoded by `ddjvu -format=pnm -page=30 -size=120x80` (no terminal output)",
                 measure(["ddjvu", "-format=pnm", "-page=30", "-size=120x80", book, "/dev/null"], runs, env), ""))
    if shutil.which("chafa"):
        # chafa reads neither PNM nor a TIFF from a pipe: ddjvu writes a TIFF file first.
        picture = os.path.join(work, "djvu-page.tif")
        pipeline = f"ddjvu -format=tiff -page=30 -size=240x160 '{book}' '{picture}' && chafa -f symbols --size 120x40 '{picture}'"
        rows.append(("Peer: `ddjvu -format=tiff -page=30 -size=240x160 … page.tif && chafa -f symbols --size 120x40 page.tif`",
                     measure(["sh", "-c", pipeline], runs, env), ""))
    notes.append(f"DjVu: a generated {DJVU_PAGES}-page bundled document ({os.path.getsize(book) / 1e3:.0f} kB, cjb2 pages, "
                 "a text layer of 40 lines a page); lectern's figures include opening the document and its start-up.")
    return rows, notes


def bench_formats(lectern, runs, fresh_env, work, measure, epy_command):
    """The rows of issue 34's formats: (rows, notes)."""
    rows, notes = bench_kindle_and_fb2(lectern, runs, fresh_env, work, epy_command)
    djvu_rows, djvu_notes = bench_djvu(lectern, runs, fresh_env(), work, measure)
    return rows + djvu_rows, notes + djvu_notes
