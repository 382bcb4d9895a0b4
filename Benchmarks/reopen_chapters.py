"""#28: reopening a book of many chapters where it was left, at its start, in a chapter in its
middle and at its end, in lectern and in epy in the same run: the 200-chapter book and the
generated 2,014-item book. As the one-chapter book's reopening rows (large_books.py): a first
process goes to the place and quits (lectern once the book is counted, so its chapter lengths
are stored), a second is timed from its start to the same page shown again; peak RSS is the
second process's VmHWM. The notes give each reopening's ratio to the book's first opening
(target ≤ 1.5×), lectern's and epy's.
"""
import re
import statistics

from large_books import SLOW_TIMEOUT, counted, reopen_series, row_figures, series
from tmux_reader import END_MARKER, MARKER

LECTERN_RUNS, EPY_RUNS = 3, 3  # timed pairs after a warm-up pair, for each place
CHAPTER = re.compile(r"Chapter (\d+):")  # make_big_epub.py's chapter titles, "Chapter 101: The River Nostrud"


def in_middle(chapters):
    """Whether the screen shows a chapter between 40 % and 60 % of the book (lectern's status row
    has its title, epy's header row), not a table of contents listing them all, nor lectern's
    "loading…" (the page shown may still be the one before)."""
    def arrived(text):
        if "Table of Contents" in text or "loading…" in text:
            return False
        return any(0.4 * chapters <= int(number) <= 0.6 * chapters for number in CHAPTER.findall(text))
    return arrived


def at_start(text):
    return MARKER in text


def at_end(text):
    return END_MARKER in text


def lectern_places(chapters):
    """(place, keys to it, wording) for lectern: `50%` (a chapter in the middle), `G`."""
    return [("start", [], at_start, "at its start (`q` once the book is counted, `lectern open` again), start to that page shown"),
            ("middle", ["5", "0", "%"], in_middle(chapters), "in its middle (`50%`, a chapter at 40–60 % of the book; `q` once counted)"),
            ("end", ["G"], at_end, "at its end (`G`, `q` once counted)")]


def epy_places(chapters):
    """The same places in epy, which has no jump to a percentage and whose `G` is the end of the
    chapter: its table of contents (`t`), `N j` down to the middle chapter or `G` to the last,
    Enter, then `G` in the last chapter."""
    down = str(chapters // 2)
    return [("start", [], at_start, "at its start (`q`, epy again)"),
            ("middle", ["t", *down, "j", "Enter"], in_middle(chapters),
             f"in its middle (`t`, `{down}j`, Enter: chapter {chapters // 2 + 1} from its table of contents; `q`)"),
            ("end", ["t", "G", "Enter", "G"], at_end, "at its end (`t`, `G`, Enter, `G`: the last chapter's end; `q`)")]


def ratios(medians, first):
    return ", ".join(f"{place} {value:.0f} ms ({value / max(first, 0.001):.1f}×)" for place, value in medians)


def reopen_chapters_rows(lectern, epy, book, label, chapters, fresh_env, first_ms, epy_first_ms=None, epy_runs=EPY_RUNS):
    """Rows (name, figures, target) and a note for reopening `book` (`label`, e.g. "200-chapter
    book") at its start, middle and end: lectern, then epy when it is installed. first_ms and
    epy_first_ms are the medians of the book's first opening in the same run, for the ratios."""
    command = [lectern, "open", book]
    rows, ours = [], []
    for place, keys, arrived, wording in lectern_places(chapters):
        values, peak = reopen_series(command, LECTERN_RUNS, fresh_env, keys, arrived, "q", counted)
        rows.append((f"Reader: reopen the {label} where it was left {wording}", row_figures(values, peak),
                     "≤ 1.5× the first opening"))
        ours.append((place, statistics.median(values)))
    note = (f"Reopening the {label} (#28), lectern at its {ratios(ours, first_ms)} against the first opening "
            f"({first_ms:.0f} ms; target ≤ 1.5×)")
    if epy is None:
        return rows, [note + "."]
    theirs = []
    for place, keys, arrived, wording in epy_places(chapters):
        values, peak = reopen_series(epy + [book], epy_runs, fresh_env, keys, arrived, "q")
        rows.append((f"epy: reopen the same book where it was left {wording}", row_figures(values, peak), ""))
        theirs.append((place, statistics.median(values)))
    return rows, [note + f"; epy at its {ratios(theirs, epy_first_ms)} against its first opening ({epy_first_ms:.0f} ms)."]


def bench_reopen_books(lectern, epy, books, fresh_env):
    """`bench.py --only reopen`: for each (book, label, chapters, epy runs) the first opening
    (LECTERN_RUNS sessions after a warm-up, a fresh library each; epy likewise) and the reopening
    rows, so the ratios have their reference in the same run."""
    rows, notes = [], []
    for book, label, chapters, epy_runs in books:
        ours, _, our_first_peak = series([lectern, "open", book], LECTERN_RUNS, fresh_env, "Space")
        rows.append((f"Reader: first page of the {label} (`lectern open`; peak RSS at the first page)",
                     row_figures(ours["first"], our_first_peak), ""))
        epy_first_ms = None
        if epy is not None:
            theirs, _, their_first_peak = series(epy + [book], epy_runs, fresh_env, "l")
            rows.append((f"epy: first page of the same {label} (peak RSS at the first page)",
                         row_figures(theirs["first"], their_first_peak), ""))
            epy_first_ms = statistics.median(theirs["first"])
        more_rows, more_notes = reopen_chapters_rows(lectern, epy, book, label, chapters, fresh_env,
                                                     statistics.median(ours["first"]), epy_first_ms, epy_runs)
        rows, notes = rows + more_rows, notes + more_notes
    return rows, notes
