"""Highlights and notes (issue #31): drawing a page with 50 highlights against the same page
without, and opening the `A` list of a book with 5,000 annotations.

`lectern highlight-bench` runs the reader in-process on a memory canvas (80×24, 256 colours),
with the annotations in memory: it times each draw of the first page, and each `A` from the
key to the list drawn. The book is made here: 20 chapters of prose.

Alone, against any build and with smaller counts:
    python3 Benchmarks/highlights.py --lectern .build/debug/lectern --list 500 --runs 3
"""
import argparse
import os
import statistics
import sys
import tempfile

from bench_epub import chapter, write_epub

CHAPTERS, PARAGRAPHS = 20, 60
SENTENCE = "The river sweats oil and tar, the barges drift with the turning tide, red sails wide to leeward. "


def make_prose_book(work):
    path = os.path.join(work, "prose-20.epub")
    if os.path.exists(path):
        return path
    files, items = {}, []
    for c in range(CHAPTERS):
        paragraphs = "".join(f"<p>{SENTENCE * 4}</p>" for _ in range(PARAGRAPHS))
        files[f"c{c}.xhtml"] = chapter(c, f"<h1>Chapter {c + 1}</h1>{paragraphs}")
        items.append(f'<item id="c{c}" href="c{c}.xhtml" media-type="application/xhtml+xml"/>')
    return write_epub(path, "urn:bench:prose", "Prose", files, items, [f"c{c}" for c in range(CHAPTERS)])


def bench_highlights(lectern, runs, env, work, run_json, stats, page=50, listed=5000):
    book = make_prose_book(work)
    report, peak = run_json([lectern, "highlight-bench", book, "--page", str(page), "--list", str(listed),
                             "--repeats", str(max(5, runs))], env)
    if report["highlights"] != page or report["annotations"] != listed:
        raise SystemExit(f"highlight-bench drew {report['highlights']} highlights and listed {report['annotations']}")
    plain = stats(report["plainDrawMs"], len(report["plainDrawMs"]), peak)
    drawn = stats(report["highlightedDrawMs"], len(report["highlightedDrawMs"]), peak)
    opened = stats(report["listOpenMs"], len(report["listOpenMs"]), peak)
    rows = [
        ("Highlights: draw a page without highlights (80×24, in-process)", plain, ""),
        (f"Highlights: draw the same page with {page} highlights on it (in-process)", drawn, ""),
        (f"Highlights: `A` in a book of {listed:,} annotations, from the key to the list drawn (in-process)", opened, "≤ 100 ms"),
    ]
    notes = [f"{page} highlights add {statistics.median(report['highlightedDrawMs']) - statistics.median(report['plainDrawMs']):.1f} ms "
             "(median) to a page draw: each is laid on the page's lines from its range at every draw."]
    return rows, notes


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench import run_json, stats  # noqa: E402 (the shared helpers)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lectern", required=True)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--page", type=int, default=50)
    parser.add_argument("--list", type=int, default=5000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, HOME=work, XDG_DATA_HOME=work + "/data", XDG_CONFIG_HOME=work + "/config",
                   XDG_CACHE_HOME=work + "/cache")
        rows, notes = bench_highlights(os.path.abspath(args.lectern), args.runs, env, work, run_json, stats,
                                       args.page, args.list)
        for name, figures, target in rows:
            print(f"| {name} | {figures['median_ms']:.2f} ms | {figures['min_ms']:.2f}–{figures['max_ms']:.2f} ms | "
                  f"{figures['peak_rss_kb'] / 1024:.1f} MB | {figures['runs']} | {target} |")
        print("\n".join(f"- {note}" for note in notes))
