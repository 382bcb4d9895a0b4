"""Media overlays (issue #33): the phrase at a random time in a 10-hour narrated book.

The book is made here: 50 chapters of 12 minutes, each a SMIL document of 720 one-second
phrases over its own (empty: nothing is played) audio file, 36,000 phrases in all.
`lectern overlay-bench` reads the overlays, lays them on the book's clock and times 10,000
lookups inside the process. The row is the median lookup; the note gives the time to read
the overlays.
"""
import os
import statistics

from bench_epub import chapter, write_epub

CHAPTERS, PHRASES = 50, 720


def make_ten_hour_book(work):
    path = os.path.join(work, "narrated-10h.epub")
    if os.path.exists(path):
        return path
    files, items = {}, []
    for c in range(CHAPTERS):
        paragraphs = "".join(f'<p id="s{p}">Sentence {p} of chapter {c}.</p>' for p in range(PHRASES))
        files[f"c{c}.xhtml"] = chapter(c, paragraphs)
        pars = "".join(f'<par><text src="../c{c}.xhtml#s{p}"/><audio src="../audio/c{c}.mp3" clipBegin="{p}s" '
                       f'clipEnd="{p + 1}s"/></par>' for p in range(PHRASES))
        files[f"smil/c{c}.smil"] = ('<?xml version="1.0"?><smil xmlns="http://www.w3.org/ns/SMIL" '
                                    f'version="3.0"><body>{pars}</body></smil>')
        files[f"audio/c{c}.mp3"] = b""
        items.append(f'<item id="c{c}" href="c{c}.xhtml" media-type="application/xhtml+xml" media-overlay="m{c}"/>'
                     f'<item id="m{c}" href="smil/c{c}.smil" media-type="application/smil+xml"/>'
                     f'<item id="a{c}" href="audio/c{c}.mp3" media-type="audio/mpeg"/>')
    return write_epub(path, "urn:bench:narrated", "Ten hours", files, items, [f"c{c}" for c in range(CHAPTERS)])


def bench_media_overlays(lectern, runs, env, work, run_json, stats):
    book = make_ten_hour_book(work)
    lookups, loads, peak = [], [], 0
    for _ in range(max(3, runs // 10)):
        report, rss = run_json([lectern, "overlay-bench", book, "--lookups", "10000"], env)
        if report["phrases"] != CHAPTERS * PHRASES or report["misses"]:
            raise SystemExit(f"overlay-bench found the wrong phrases: {report['phrases']} phrases, {report['misses']} misses")
        lookups += report["lookupMs"]
        loads.append(report["loadMs"])
        peak = max(peak, rss)
    figures = stats(lookups, len(lookups), peak)
    rows = [("Media overlays: the phrase at a random time in a 10-hour narrated book (36,000 phrases; in-process)",
             figures, "≤ 1 ms")]
    notes = [f"Reading the 50 SMIL documents of that book and laying its 36,000 phrases on one clock takes "
             f"{statistics.median(loads):.0f} ms (median); a lookup is a binary search over the phrases' start times."]
    return rows, notes
