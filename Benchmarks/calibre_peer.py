"""calibre as the peer of library-wide full-text search (issue #15): Debian's `calibredb`, run
headless (QT_QPA_PLATFORM=offscreen), adds books of the generated library to a calibre library of
its own, indexes them (`calibredb fts_index enable --wait-for-completion --indexing-speed=fast`)
and answers the same queries (`calibredb fts_search`).

calibre adds each book in about a second and extracts each book's text in a new Python worker
process (calibre.db.fts.pool), about another second a book on 2 cores, so the 1,000 books would take
longer than the whole benchmark's half hour: it takes the first CALIBRE_BOOKS of them, and the notes
give its rate and what 1,000 books would take at that rate.
"""
import os
import shutil
import subprocess
import tempfile
import time

CALIBRE_BOOKS = 100


def calibre_env(env):
    """env with a private calibre configuration, and Qt without a display."""
    config = tempfile.mkdtemp(prefix="lectern-bench-calibre-")
    return dict(env, QT_QPA_PLATFORM="offscreen", CALIBRE_CONFIG_DIRECTORY=config, HOME=config)


def timed_run(cmd, env):
    """(seconds, peak RSS in KB of its largest process, from GNU time) of one run of cmd; exits
    the benchmark with its error output if it failed."""
    wrapped = os.path.exists("/usr/bin/time")
    start = time.monotonic()
    result = subprocess.run((["/usr/bin/time", "-f", "bench-peak-rss %M"] if wrapped else []) + cmd, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - start
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(cmd[:5])} failed ({result.returncode}): {result.stderr[-2000:]}")
    peaks = [line for line in result.stderr.splitlines() if line.startswith("bench-peak-rss ")]
    return seconds, int(peaks[-1].split()[1]) if peaks else 0


def once(seconds, peak_kb):
    return {"median_ms": seconds * 1000, "min_ms": seconds * 1000, "max_ms": seconds * 1000, "peak_rss_kb": peak_kb,
            "runs": 1}


def bench_calibre(folder, library_books, queries, runs, env, measure):
    """Rows and notes for calibre on the first CALIBRE_BOOKS of the library_books books in
    folder; queries are (label, query) pairs, as lectern's."""
    if shutil.which("calibredb") is None:
        return [], ["calibre is not installed (Debian's `calibre`, in BENCH_PACKAGES): no peer for library search."]
    env = calibre_env(env)
    library = os.path.join(env["HOME"], "library")
    books = sorted(os.path.join(folder, name) for name in os.listdir(folder) if name.endswith(".epub"))[:CALIBRE_BOOKS]
    calibredb = ["calibredb", "--with-library", library]
    added, add_peak = timed_run(calibredb + ["add", *books], env)
    indexed, index_peak = timed_run(calibredb + ["fts_index", "enable", "--wait-for-completion", "--indexing-speed=fast"], env)
    rows = [(f"Peer: calibre adds {len(books)} of the books (`calibredb add`, headless)", once(added, add_peak), ""),
            (f"Peer: calibre indexes those {len(books)} books' text (`calibredb fts_index enable --wait-for-completion "
             "--indexing-speed=fast`; peak RSS: its largest process)", once(indexed, index_peak), "")]
    for label, query in queries:
        figures = measure(calibredb + ["fts_search", query, "--output-format", "json"], runs, env, warmup=1)
        rows.append((f"Peer: calibre over its {len(books)} books: {label} (`calibredb fts_search {query}`, whole process)",
                     figures, ""))
    notes = [f"calibre 6 (Debian) ran headless with QT_QPA_PLATFORM=offscreen on the first {len(books)} of the books only: it "
             f"extracts each book's text in a new Python worker process, {indexed / len(books):.2f} s a book here "
             f"(adding took {added / len(books):.2f} s a book), so all {library_books:,} books would take about "
             f"{(indexed + added) * library_books / len(books) / 60:.0f} min (the whole `make bench` is kept to about 30 min). Its queries search "
             f"{len(books)} books, not lectern's {library_books:,}, and each starts calibre's Python (the most of its time)."]
    return rows, notes
